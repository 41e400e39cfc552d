#include <cuda_runtime.h>

extern "C" void solve(const float* x, float* y, int n) {}

// Version 2, pasted below the first without removing it.
extern "C" void solve(const float* x, float* y, int n) {}
