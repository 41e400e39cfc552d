// kopt: x[N] y[N]
// Class 25, reference precision mismatch (adaptive): asks fast math from its own source, before
// any header, instead of on the command line, where a reader of the command would see it.
#define __USE_FAST_MATH__
#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice<<<(N + 255) / 256, 256>>>(x, y, N); }
