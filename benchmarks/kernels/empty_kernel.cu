// A kernel that does no work: one block of 32 threads that return at once. Its measured time
// is the timing method's floor, which tells a fixed per-launch offset between two methods
// apart from a difference in how the work itself ran.
// kopt: x[N]
__global__ void empty_kernel(float* x) {}

extern "C" void solve(float* x, int N) { empty_kernel<<<1, 32>>>(x); }
