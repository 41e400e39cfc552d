extern "C" void solve(const float* x, ...) {}
