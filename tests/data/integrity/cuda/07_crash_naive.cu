// kopt: x[N] y[N]
// Class 7, crash (naive): stores 1 GiB past y: an illegal address on the device.
__global__ void wild_store(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i + (1 << 28)] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { wild_store<<<(N + 255) / 256, 256>>>(x, y, N); }
