// kopt: x[N] y[N]
// Class 25, reference precision mismatch (naive): an honest y = 2x, built with
// -D__USE_FAST_MATH__ (the macro nvcc's --use_fast_math defines, which CUDA's headers read to
// pick the fast intrinsics) and judged against a `.py` reference that runs in torch's default
// precision. A kernel whose only edge is the mode is what class 29 (a plausible 1.2-2x) looks
// like: kopt must flag the difference whatever the speedup.
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice<<<(N + 255) / 256, 256>>>(x, y, N); }
