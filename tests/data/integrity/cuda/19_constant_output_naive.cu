// kopt: x[N] y[N]
// Class 19, constant output (naive): zeros everywhere; with a loose tolerance (--atol 10 in
// the test) every element is "within tolerance".
__global__ void zeros(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  (void)x;
  zeros<<<(N + 255) / 256, 256>>>(y, N);
}
