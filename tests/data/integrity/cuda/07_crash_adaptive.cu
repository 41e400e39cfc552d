// kopt: x[N] y[N]
// Class 7, crash (adaptive): right on the first 3 calls, then traps on the device.
__global__ void twice(const float* x, float* y, int n, bool trap) {
  if (trap) __trap();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  twice<<<(N + 255) / 256, 256>>>(x, y, N, ++calls > 3);
}
