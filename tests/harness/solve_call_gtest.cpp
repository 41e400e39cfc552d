#include "harness/solve_call.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "kernel/signature.h"

namespace {

// Host stand-ins for solve(): they record what they received.
struct received {
  const float* in = nullptr;
  float* out = nullptr;
  int n = 0;
  float alpha = 0;
  double beta = 0;
  long long big = 0;
  unsigned char flag = 0;
  std::size_t size = 0;
} last;

extern "C" void mixed_solve(const float* in, float* out, int n, float alpha, double beta, long long big,
                            bool flag, std::size_t size) {
  last = {in, out, n, alpha, beta, big, static_cast<unsigned char>(flag), size};
}

extern "C" void many_floats(float a, float b, float c, float d, float e, float f, float g, float h, float i,
                            float* out) {
  // Nine floats overflow the eight SSE argument registers: the ninth goes on the stack.
  out[0] = a + b + c + d + e + f + g + h + i;
}

}  // namespace

namespace kopt::harness {
namespace {

TEST(SolveCall, PassesPointersAndEveryScalarKind) {
  const auto sig = kernel::parse_signature(
      "extern \"C\" void solve(const float* in, float* out, int n, float alpha, double beta, "
      "long long big, bool flag, size_t size) {}",
      "test.cu");
  solve_call call(reinterpret_cast<void*>(&mixed_solve), sig);
  float input = 0;
  float output = 0;
  call.set_pointer(0, &input);
  call.set_pointer(1, &output);
  call.set_scalar(2, kernel::scalar_value{std::int64_t{4096}});
  call.set_scalar(3, kernel::scalar_value{2.5});
  call.set_scalar(4, kernel::scalar_value{-0.125});
  call.set_scalar(5, kernel::scalar_value{std::int64_t{1} << 40});
  call.set_scalar(6, kernel::scalar_value{std::int64_t{1}});
  call.set_scalar(7, kernel::scalar_value{std::int64_t{123456789012}});
  call.invoke();
  EXPECT_EQ(last.in, &input);
  EXPECT_EQ(last.out, &output);
  EXPECT_EQ(last.n, 4096);
  EXPECT_FLOAT_EQ(last.alpha, 2.5f);
  EXPECT_DOUBLE_EQ(last.beta, -0.125);
  EXPECT_EQ(last.big, 1LL << 40);
  EXPECT_EQ(last.flag, 1);
  EXPECT_EQ(last.size, 123456789012u);
}

TEST(SolveCall, PassesArgumentsBeyondTheRegisters) {
  const auto sig = kernel::parse_signature(
      "extern \"C\" void solve(float a, float b, float c, float d, float e, float f, float g, float h, "
      "float i, float* out) {}",
      "test.cu");
  solve_call call(reinterpret_cast<void*>(&many_floats), sig);
  for (int i = 0; i < 9; ++i) call.set_scalar(i, kernel::scalar_value{static_cast<double>(i + 1)});
  float out = 0;
  call.set_pointer(9, &out);
  call.invoke();
  EXPECT_FLOAT_EQ(out, 45.0f);
}

}  // namespace
}  // namespace kopt::harness
