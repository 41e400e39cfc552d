// extern "C" void solve(const float* x, int n)   <- in a comment, does not count
#include <cuda_runtime.h>

static const char* hint = "extern \"C\" void solve(int n)";

extern "C" void solve_v2(const float* x, int n) {}
