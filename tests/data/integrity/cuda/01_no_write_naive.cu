// kopt: x[N] y[N]
// Class 1, no write (naive): a kernel runs but never touches y, hoping the buffer already
// holds a right answer.
__global__ void nothing(const float*, float*, int) {}

extern "C" void solve(const float* x, float* y, int N) { nothing<<<1, 32>>>(x, y, N); }
