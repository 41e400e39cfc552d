#include "validate/output_comparison.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace kopt::validate {
namespace {

const kernel::element_type f32 = *kernel::element_type_by_name("float32");
const kernel::element_type i32 = *kernel::element_type_by_name("int32");
constexpr std::uint32_t poison = 0x7fc0ffee;  // a quiet NaN with a payload

std::vector<std::byte> floats(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

const float P = std::bit_cast<float>(poison);

output_comparison compare(const std::vector<float>& kernel, const std::vector<float>& reference) {
  return compare_output("out", f32, floats(kernel), floats(reference), poison, default_tolerance(f32));
}

TEST(OutputComparison, MatchWithinTolerance) {
  const auto c = compare({1.0f, 2.00015f, -3.0f}, {1.0f, 2.0f, -3.0f});
  EXPECT_TRUE(c.passed) << c.summary();
  EXPECT_EQ(c.compared, 3u);
  EXPECT_NEAR(c.max_abs_error, 0.00015, 1e-7);
}

TEST(OutputComparison, ValueOutsideToleranceFailsWithTheFirstIndex) {
  const auto c = compare({1.0f, 2.1f, 3.0f, 5.0f}, {1.0f, 2.0f, 3.0f, 4.0f});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 2u);
  ASSERT_EQ(c.first_mismatches.size(), 2u);
  EXPECT_EQ(c.first_mismatches[0].index, 1u);
  EXPECT_EQ(c.first_mismatches[0].what, "value");
  EXPECT_NEAR(c.max_abs_error, 1.0, 1e-6);
  EXPECT_EQ(c.summary(), "out: 2 of 4 elements differ; first at [1] (value): kernel 2.1 vs reference 2");
}

TEST(OutputComparison, NanWhereTheReferenceHasANumberFails) {
  const auto c = compare({1.0f, std::nanf("")}, {1.0f, 2.0f});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_mismatches.at(0).what, "NaN");
}

TEST(OutputComparison, UnwrittenElementsAreCaught) {
  // The kernel wrote only the first half: the rest still holds poison.
  const auto c = compare({1.0f, 2.0f, P, P}, {1.0f, 2.0f, 3.0f, 4.0f});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.unwritten, 2u);
  EXPECT_EQ(c.first_mismatches.at(0).what, "left as poison");
}

TEST(OutputComparison, OverAllocatedTailMustKeepItsPoison) {
  // The reference's extent is three elements; an untouched tail passes, a stray write fails.
  EXPECT_TRUE(compare({1.0f, 2.0f, 3.0f, P}, {1.0f, 2.0f, 3.0f, P}).passed);
  const auto c = compare({1.0f, 2.0f, 3.0f, 0.0f}, {1.0f, 2.0f, 3.0f, P});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.stray_writes, 1u);
  EXPECT_EQ(c.compared, 3u);
}

TEST(OutputComparison, ExpectedNanMatchesNan) {
  EXPECT_TRUE(compare({std::nanf(""), 1.0f}, {std::nanf(""), 1.0f}).passed);
}

TEST(OutputComparison, IntegersCompareExactly) {
  std::vector<std::int32_t> kernel = {1, 2, 4};
  std::vector<std::int32_t> reference = {1, 2, 3};
  std::vector<std::byte> k(12), r(12);
  std::memcpy(k.data(), kernel.data(), 12);
  std::memcpy(r.data(), reference.data(), 12);
  const auto c = compare_output("hist", i32, k, r, 0x7f7f7f7f, default_tolerance(i32));
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 1u);
}

TEST(OutputComparison, NothingWrittenByTheReferenceIsNotAPass) {
  const auto c = compare({P, P}, {P, P});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.summary(), "out: the reference wrote no element of it; nothing to compare");
}

TEST(OutputComparison, JsonHasNoNan) {
  const auto c = compare({std::nanf("")}, {1.0f});
  const json j = to_json(c);
  EXPECT_TRUE(j["first_mismatches"][0]["kernel"].is_null());
  EXPECT_NO_THROW((void)j.dump());
}

TEST(OutputComparison, EachFailureNamesItsClass) {
  EXPECT_EQ(compare({P, P, P}, {1.0f, 2.0f, 3.0f}).failure_class(), "no write");
  EXPECT_EQ(compare({1.0f, P, 3.0f}, {1.0f, 2.0f, 3.0f}).failure_class(), "partial write");
  EXPECT_EQ(compare({1.0f, 2.0f, 9.0f}, {1.0f, 2.0f, P}).failure_class(), "out of bounds");
  EXPECT_EQ(compare({1.0f, std::nanf(""), 3.0f}, {1.0f, 2.0f, 3.0f}).failure_class(), "NaN/Inf");
  EXPECT_EQ(compare({1.0f, INFINITY, 3.0f}, {1.0f, 2.0f, 3.0f}).failure_class(), "NaN/Inf");
  EXPECT_EQ(compare({1.0f, 2.5f, 3.0f}, {1.0f, 2.0f, 3.0f}).failure_class(), "wrong values");
  const auto c = compare({P, P}, {1.0f, 2.0f});
  EXPECT_EQ(c.verdict(), "no write: " + c.summary());
}

TEST(OutputComparison, ConstantOutputFailsEvenWithinALooseTolerance) {
  // Zeros against values in [-1, 1) pass an absolute tolerance of 10, but the answer is a constant.
  tolerance loose = default_tolerance(f32);
  loose.atol = 10;
  const auto c = compare_output("y", f32, floats({0, 0, 0, 0}), floats({-0.5f, 0.25f, 0.75f, -1.0f}), poison, loose);
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_FALSE(c.passed);
  EXPECT_TRUE(c.constant_output);
  EXPECT_EQ(c.failure_class(), "constant output");
  EXPECT_EQ(c.summary(),
            "y: every element is 0 while the reference's vary over [-1, 0.75] (each within the tolerance, but the "
            "answer is a constant)");
}

TEST(OutputComparison, AConstantReferenceAllowsAConstantAnswer) {
  const auto c = compare({2.0f, 2.0f, 2.0f}, {2.0f, 2.0f, 2.0f});
  EXPECT_TRUE(c.passed) << c.summary();
  EXPECT_FALSE(c.constant_output);
}

TEST(OutputComparison, ReportsTheLargestRelativeError) {
  const auto c = compare({1.0005f, -2.0f, 0.0f}, {1.0f, -2.0f, 0.0f});
  EXPECT_TRUE(c.passed) << c.summary();
  EXPECT_NEAR(c.max_rel_error, 0.0005, 1e-6);
}

TEST(OutputComparison, LargeOutputsAreComparedInPiecesWithTheSameAnswer) {
  // 3M elements: several pieces, compared on several threads; mismatches stay in index order.
  std::vector<float> reference(3u << 20);
  for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = static_cast<float>(i % 1000) / 1000.0f;
  std::vector<float> kernel = reference;
  kernel[2'500'000] += 1.0f;
  kernel[100] = P;
  kernel[1'500'000] += 1.0f;
  const auto c = compare(kernel, reference);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.compared, reference.size());
  EXPECT_EQ(c.mismatches, 3u);
  EXPECT_EQ(c.unwritten, 1u);
  ASSERT_EQ(c.first_mismatches.size(), 3u);
  EXPECT_EQ(c.first_mismatches[0].index, 100u);
  EXPECT_EQ(c.first_mismatches[1].index, 1'500'000u);
  EXPECT_EQ(c.first_mismatches[2].index, 2'500'000u);
  EXPECT_NEAR(c.max_abs_error, 1.0, 1e-6);
  EXPECT_EQ(c.failure_class(), "partial write");
}

// A piece where everything passes takes a shorter loop than one with something to report: both
// give the figures a plain computation gives, whichever pieces take which loop.
TEST(OutputComparison, PassingAndFailingPiecesGiveTheSameFigures) {
  std::vector<float> reference((2u << 20) + 7);
  std::vector<float> kernel(reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    reference[i] = static_cast<float>(i % 977) / 100.0f - 3.0f;
    kernel[i] = reference[i] + static_cast<float>(i % 7) * 1e-6f;
  }
  const auto figures_of = [&](std::size_t skip) {
    double sum = 0, max_abs = 0, max_rel = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      if (i == skip) continue;
      const double error = std::fabs(static_cast<double>(kernel[i]) - static_cast<double>(reference[i]));
      sum += error;
      ++count;
      max_abs = std::max(max_abs, error);
      if (reference[i] != 0) max_rel = std::max(max_rel, error / std::fabs(static_cast<double>(reference[i])));
    }
    return std::tuple{sum / static_cast<double>(count), max_abs, max_rel};
  };
  const auto passing = compare(kernel, reference);
  EXPECT_TRUE(passing.passed) << passing.summary();
  EXPECT_EQ(passing.compared, reference.size());
  const auto [mean, max_abs, max_rel] = figures_of(reference.size());
  EXPECT_NEAR(passing.mean_abs_error, mean, 1e-12);
  EXPECT_EQ(passing.max_abs_error, max_abs);
  EXPECT_EQ(passing.max_rel_error, max_rel);

  kernel[(1u << 20) + 3] = std::numeric_limits<float>::infinity();  // the second piece has an Inf to report
  const auto failing = compare(kernel, reference);
  EXPECT_FALSE(failing.passed);
  EXPECT_EQ(failing.compared, reference.size());
  EXPECT_EQ(failing.non_finite, 1u);
  const auto [mean_without, max_abs_without, max_rel_without] = figures_of((1u << 20) + 3);
  EXPECT_NEAR(failing.mean_abs_error, mean_without, 1e-12);
  EXPECT_EQ(failing.max_abs_error, max_abs_without);
  EXPECT_EQ(failing.max_rel_error, max_rel_without);
}

}  // namespace
}  // namespace kopt::validate
