#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int n);

extern "C" void solve(const float* input, double* output, int n) {}
