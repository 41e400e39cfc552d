#include <cuda_runtime.h>

extern "C" void solve(const float* input, float*, int n) {}
