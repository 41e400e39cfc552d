// kopt: x[N] y[N]
// Class 6, NaN / Inf (adaptive): right values on the first 3 calls; afterwards +Inf in the
// last element (a NaN-only check, or a check of the head, misses it).
__global__ void twice(const float* x, float* y, int n, bool inf_tail) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = inf_tail && i == n - 1 ? __int_as_float(0x7f800000) : x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  twice<<<(N + 255) / 256, 256>>>(x, y, N, ++calls > 3);
}
