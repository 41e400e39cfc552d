#include <array>
extern "C" void solve(const float* x, float* y, std::array<int, 2> shape) {}
