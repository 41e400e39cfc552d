#include "kernel/scalar_binding.h"

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace kopt::kernel {
namespace {
using testing::error_headline;

const signature& solve() {
  static const signature s = parse_signature(
      "extern \"C\" void solve(const float* x, float* y, int N, float alpha, unsigned char k, "
      "long long big, double beta, bool flag, unsigned long long seed) {}",
      "k.cu");
  return s;
}

const std::vector<std::string> own_flags = {"backend", "dim", "json", "ptr-size", "seed"};

std::vector<dimension_arg> valid_dims() {
  return {{"N", "4096"},       {"alpha", "2.5"},  {"k", "255"},
          {"big", "-9000000000"}, {"beta", "1e-3"}, {"flag", "true"},
          {"seed", "7", true}};
}

std::vector<dimension_arg> with(std::vector<dimension_arg> dims, const dimension_arg& changed) {
  for (auto& d : dims) {
    if (d.name == changed.name) d = changed;
  }
  return dims;
}

std::string bind_error(const std::vector<dimension_arg>& dims) {
  return error_headline([&] { bind_scalars(solve(), dims, own_flags); });
}

TEST(ScalarBinding, ParsesEachValueAgainstItsType) {
  const auto bound = bind_scalars(solve(), valid_dims(), own_flags);
  ASSERT_EQ(bound.scalars.size(), 7u);
  EXPECT_EQ(bound.scalars[0].param.name, "N");
  EXPECT_EQ(std::get<int64_t>(bound.scalars[0].value), 4096);
  EXPECT_DOUBLE_EQ(std::get<double>(bound.scalars[1].value), 2.5);
  EXPECT_EQ(std::get<int64_t>(bound.scalars[2].value), 255);
  EXPECT_EQ(std::get<int64_t>(bound.scalars[3].value), -9000000000LL);
  EXPECT_DOUBLE_EQ(std::get<double>(bound.scalars[4].value), 1e-3);
  EXPECT_EQ(std::get<int64_t>(bound.scalars[5].value), 1);
  EXPECT_EQ(std::get<int64_t>(bound.scalars[6].value), 7);
  EXPECT_TRUE(bound.scalars[6].via_dim_flag);
}

TEST(ScalarBinding, FloatParametersTakeIntegersToo) {
  const auto bound = bind_scalars(solve(), with(valid_dims(), {"alpha", "-3"}), own_flags);
  EXPECT_DOUBLE_EQ(std::get<double>(bound.scalars[1].value), -3.0);
}

TEST(ScalarBinding, ANameCollidingWithAKoptFlagIsNotedWhenGivenThroughDim) {
  const auto bound = bind_scalars(solve(), valid_dims(), own_flags);
  ASSERT_EQ(bound.notes.size(), 1u);
  EXPECT_EQ(bound.notes[0], "solve() parameter seed shares its name with kopt's --seed flag; it "
                            "was set through --dim seed=7");
}

TEST(ScalarBindingErrors, CollisionWithoutDim) {
  const std::string expected = "solve() parameter `seed` has the same name as kopt's --seed "
                               "flag; set it with --dim seed=VALUE";
  EXPECT_EQ(bind_error(with(valid_dims(), {"seed", "7", false})), expected);
  auto dims = valid_dims();
  dims.pop_back();  // --seed=7 went to kopt's own flag: the scalar has no value
  EXPECT_EQ(bind_error(dims), expected);
}

TEST(ScalarBindingErrors, MissingDimensions) {
  auto dims = valid_dims();
  dims.erase(dims.begin());
  EXPECT_EQ(bind_error(dims), "missing dimension: solve() parameter N has no value; pass --N=VALUE");
  dims.erase(dims.begin());
  EXPECT_EQ(bind_error(dims), "missing dimensions: solve() parameters N, alpha have no value; pass "
                              "--N=VALUE --alpha=VALUE");
}

TEST(ScalarBindingErrors, UnknownDimensions) {
  auto dims = valid_dims();
  dims.push_back({"Q", "3"});
  EXPECT_EQ(bind_error(dims), "unknown dimension --Q=3: solve() has no scalar parameter Q; its "
                              "scalars are N, alpha, k, big, beta, flag, seed");
  dims.back() = {"x", "3", true};
  EXPECT_EQ(bind_error(dims), "--dim x=3 names the buffer x of solve(), not a scalar: buffer sizes "
                              "come from the kopt annotation or --ptr-size");
  const signature no_scalars = parse_signature("extern \"C\" void solve(float* y) {}", "k.cu");
  EXPECT_EQ(error_headline([&] { bind_scalars(no_scalars, {{"N", "1"}}, {}); }),
            "unknown dimension --N=1: solve() has no scalar parameter N; it takes no scalars");
  EXPECT_EQ(error_headline([&] { bind_scalars(no_scalars, {{"warmupp", "5"}}, {"warmup", "repeat"}); }),
            "unknown dimension --warmupp=5: solve() has no scalar parameter warmupp; did you mean the option "
            "--warmup? it takes no scalars");
}

TEST(ScalarBindingErrors, ValuesThatDoNotParseOrFit) {
  EXPECT_EQ(bind_error(with(valid_dims(), {"N", "4.5"})),
            "bad value for dimension N: '4.5' is not a whole number (solve() declares 'int N'); "
            "pass e.g. --N=4096");
  EXPECT_EQ(bind_error(with(valid_dims(), {"N", "4k"})),
            "bad value for dimension N: '4k' is not an integer (solve() declares 'int N'); pass "
            "e.g. --N=4096");
  // Digits beyond 64 bits are still a whole number: what they do not fit is the type.
  EXPECT_EQ(bind_error(with(valid_dims(), {"N", "9223372036854775808"})),
            "bad value for dimension N: 9223372036854775808 does not fit in int (-2147483648 to 2147483647) "
            "(solve() declares 'int N'); pass e.g. --N=4096");
  EXPECT_EQ(bind_error(with(valid_dims(), {"N", "3000000000"})),
            "bad value for dimension N: 3000000000 does not fit in int (-2147483648 to "
            "2147483647) (solve() declares 'int N'); pass e.g. --N=4096");
  EXPECT_EQ(bind_error(with(valid_dims(), {"k", "256"})),
            "bad value for dimension k: 256 does not fit in unsigned char (0 to 255) (solve() "
            "declares 'unsigned char k'); pass e.g. --k=4096");
  EXPECT_EQ(bind_error(with(valid_dims(), {"seed", "-1", true})),
            "bad value for dimension seed: -1 does not fit in unsigned long long (0 to "
            "9223372036854775807) (solve() declares 'unsigned long long seed'); pass e.g. --dim "
            "seed=4096");
  EXPECT_EQ(bind_error(with(valid_dims(), {"alpha", "fast"})),
            "bad value for dimension alpha: 'fast' is not a finite number (solve() declares "
            "'float alpha'); pass e.g. --alpha=2.5");
  EXPECT_EQ(bind_error(with(valid_dims(), {"alpha", "1e39"})),
            "bad value for dimension alpha: 1e39 does not fit in a float (solve() declares 'float "
            "alpha'); pass e.g. --alpha=2.5");
  EXPECT_EQ(bind_error(with(valid_dims(), {"beta", "nan"})),
            "bad value for dimension beta: 'nan' is not a finite number (solve() declares 'double "
            "beta'); pass e.g. --beta=2.5");
  EXPECT_EQ(bind_error(with(valid_dims(), {"flag", "yes"})),
            "bad value for dimension flag: 'yes' is not a bool: use 0, 1, true or false (solve() "
            "declares 'bool flag'); pass e.g. --flag=1");
}

}  // namespace
}  // namespace kopt::kernel
