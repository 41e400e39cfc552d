// kopt: x[N] y[N]
// Class 4, write into inputs (adaptive): right y every call, but after the first 3 calls it
// also uses x as scratch space (stores its result there), when it hopes nobody compares x.
__global__ void twice(const float* x, float* y, int n, bool clobber) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i] * 2.0f;
    y[i] = v;
    if (clobber) const_cast<float*>(x)[i] = v;
  }
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  twice<<<(N + 255) / 256, 256>>>(x, y, N, ++calls > 3);
}
