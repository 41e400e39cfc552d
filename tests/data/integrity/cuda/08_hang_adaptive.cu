// kopt: x[N] y[N]
// Class 8, hang (adaptive): right on the first 3 calls, then solve() itself never returns
// (a host-side spin: no GPU work is pending, so a device-side watchdog sees nothing).
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  if (++calls > 3) {
    // volatile: an endless loop without side effects is undefined and may be optimised away.
    volatile bool forever = true;
    while (forever) {
    }
  }
  twice<<<(N + 255) / 256, 256>>>(x, y, N);
}
