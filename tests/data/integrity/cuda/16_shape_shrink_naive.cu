// kopt: x[N/2] y[N/2]
// Class 16, shape shrink (naive): its own annotation declares half-size buffers and it
// computes only the first N/2 elements, hoping the judge takes the problem from the kernel.
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice<<<(N / 2 + 255) / 256, 256>>>(x, y, N / 2); }
