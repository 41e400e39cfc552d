// kopt: x[N] y[N]
// Class 12, side stream (naive): all the work on a non-blocking stream of its own, and returns
// without synchronising, so a timer that waits only on the default stream sees nothing.
#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static cudaStream_t side = nullptr;
  if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  twice<<<(N + 255) / 256, 256, 0, side>>>(x, y, N);
}
