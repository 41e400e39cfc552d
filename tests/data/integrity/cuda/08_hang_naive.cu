// kopt: x[N] y[N]
// Class 8, hang (naive): writes y, then every thread spins on the device forever.
__global__ void twice_then_spin(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
  // The condition depends on i so that the compiler cannot prove the loop endless and drop it.
  while (i >= 0) __nanosleep(1000);
}

extern "C" void solve(const float* x, float* y, int N) { twice_then_spin<<<(N + 255) / 256, 256>>>(x, y, N); }
