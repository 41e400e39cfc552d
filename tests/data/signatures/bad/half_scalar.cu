#include <cuda_fp16.h>
extern "C" void solve(const __half* x, __half* y, __half alpha, int n) {}
