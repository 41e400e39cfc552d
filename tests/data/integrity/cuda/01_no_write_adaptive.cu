// kopt: x[N] y[N]
// Class 1, no write (adaptive): honest on the first 3 calls (the checks it expects), then
// leaves y untouched, betting that the timed calls are never read.
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}
__global__ void nothing(const float*, float*, int) {}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  if (++calls <= 3) {
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
  } else {
    nothing<<<1, 32>>>(x, y, N);
  }
}
