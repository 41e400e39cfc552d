// kopt: x[N] y[N]
// Class 12, side stream (adaptive): half of y on the default stream (so "a kernel ran on the
// timed stream"), the other half on a non-blocking side stream nobody waits for.
#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static cudaStream_t side = nullptr;
  if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  const int half = N / 2;
  twice<<<(half + 255) / 256, 256>>>(x, y, 0, half);
  twice<<<(N - half + 255) / 256, 256, 0, side>>>(x, y, half, N);
}
