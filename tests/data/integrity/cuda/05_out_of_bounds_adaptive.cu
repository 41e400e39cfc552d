// kopt: x[N] y[N]
// Class 5, out of bounds (adaptive): right y every call; after the first 3 calls it also
// stores one element before y's start.
__global__ void twice(const float* x, float* y, int n, bool stray) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
  if (stray && i == 0) y[-1] = 0.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  twice<<<(N + 255) / 256, 256>>>(x, y, N, ++calls > 3);
}
