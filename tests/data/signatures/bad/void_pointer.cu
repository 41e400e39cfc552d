extern "C" void solve(const void* x, float* y, int n) {}
