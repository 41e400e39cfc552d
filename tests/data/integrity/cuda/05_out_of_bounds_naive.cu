// kopt: x[N] y[N]
// Class 5, out of bounds (naive): right y, plus one store one element past its end.
__global__ void twice_one_more(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
  if (i == n) y[n] = 0.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice_one_more<<<(N + 256) / 256, 256>>>(x, y, N); }
