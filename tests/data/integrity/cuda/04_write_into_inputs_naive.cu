// kopt: x[N] y[N]
// Class 4, write into inputs (naive): right y, then zeroes its input x (used as scratch).
__global__ void twice_and_clobber(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] * 2.0f;
    const_cast<float*>(x)[i] = 0.0f;
  }
}

extern "C" void solve(const float* x, float* y, int N) { twice_and_clobber<<<(N + 255) / 256, 256>>>(x, y, N); }
