// kopt: x[N] y[N]
// The honest reference of the integrity suite: y[i] = 2 * x[i].
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice<<<(N + 255) / 256, 256>>>(x, y, N); }
