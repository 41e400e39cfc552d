// kopt: x[N] y[N]
// Class 18, precision downgrade (adaptive): computes through half (11-bit significand): at most
// 2^-11 ~ 4.9e-4 relative error for x in [-1, 1), inside float32's tolerance (rtol 1e-3).
// Expected to pass, with its nonzero max abs error reported.
#include <cuda_fp16.h>

__global__ void twice_half(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __half2float(__hmul(__float2half(x[i]), __float2half(2.0f)));
}

extern "C" void solve(const float* x, float* y, int N) { twice_half<<<(N + 255) / 256, 256>>>(x, y, N); }
