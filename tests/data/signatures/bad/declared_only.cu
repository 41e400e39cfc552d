extern "C" void solve(const float* x, float* y, int n);
