// kopt: x[N] y[N]
// Class 6, NaN / Inf (naive): one NaN (y[7]) among right values.
__global__ void twice_with_nan(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = i == 7 ? __int_as_float(0x7fc00000) : x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice_with_nan<<<(N + 255) / 256, 256>>>(x, y, N); }
