// kopt: x[N] y[N]
// Class 2, partial write (naive): skips the last 1 % of y.
__global__ void twice_head(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - n / 100) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice_head<<<(N + 255) / 256, 256>>>(x, y, N); }
