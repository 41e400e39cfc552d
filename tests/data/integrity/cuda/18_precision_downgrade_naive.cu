// kopt: x[N] y[N]
// Class 18, precision downgrade (naive): computes through bfloat16 (8-bit significand): up to
// ~0.4 % relative error, outside float32's tolerance (atol 1e-4, rtol 1e-3).
#include <cuda_bf16.h>

__global__ void twice_bf16(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __bfloat162float(__hmul(__float2bfloat16(x[i]), __float2bfloat16(2.0f)));
}

extern "C" void solve(const float* x, float* y, int N) { twice_bf16<<<(N + 255) / 256, 256>>>(x, y, N); }
