// kopt: x[N] y[N]
// Class 2, partial write (adaptive): the whole of y on the first 3 calls, then only the even
// indices (half the stores, and a sampled check may well land on an even index).
__global__ void twice_stride(const float* x, float* y, int n, int stride) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  const int stride = ++calls <= 3 ? 1 : 2;
  const int threads = (N + stride - 1) / stride;
  twice_stride<<<(threads + 255) / 256, 256>>>(x, y, N, stride);
}
