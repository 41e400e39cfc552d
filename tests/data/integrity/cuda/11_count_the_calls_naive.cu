// kopt: x[N] y[N]
// Class 11, count the calls (naive): computes for the first 5 calls (the checks, it hopes),
// then launches nothing.
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  if (++calls <= 5) twice<<<(N + 255) / 256, 256>>>(x, y, N);
}
