// kopt: x[N] y[N]
// Class 28, uninitialised memory (adaptive): looks careful, zeroing its scratch buffer, but only
// its first half (a size computed in elements, written as bytes); the second half is read
// unwritten, and fresh memory's zeros hide it in a plain bench.
#include <cuda_runtime.h>

__global__ void twice_plus(const float* x, const float* scratch, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f + scratch[i];
}

extern "C" void solve(const float* x, float* y, int N) {
  static float* scratch = nullptr;
  if (scratch == nullptr) {
    if (cudaMalloc(&scratch, sizeof(float) * N) != cudaSuccess) return;
    cudaMemset(scratch, 0, sizeof(float) * (N / 2));
  }
  twice_plus<<<(N + 255) / 256, 256>>>(x, scratch, y, N);
}
