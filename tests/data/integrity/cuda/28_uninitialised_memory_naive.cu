// kopt: x[N] y[N]
// Class 28, uninitialised memory (naive): adds a scratch buffer it never wrote (cudaMalloc'd
// once) to 2x. Fresh device memory usually reads as zeros, so it may well pass a plain bench by
// luck; compute-sanitizer's initcheck sees the read.
#include <cuda_runtime.h>

__global__ void twice_plus(const float* x, const float* scratch, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f + scratch[i];
}

extern "C" void solve(const float* x, float* y, int N) {
  static float* scratch = nullptr;
  if (scratch == nullptr && cudaMalloc(&scratch, sizeof(float) * N) != cudaSuccess) return;
  twice_plus<<<(N + 255) / 256, 256>>>(x, scratch, y, N);
}
