// gp's and tpe's random start, listed ahead (tune/model_proposer.h): what upcoming() lists is what
// next() then proposes whatever the times measured meanwhile, failures included, so the builds
// made ahead are the builds the tune uses; once the model decides, nothing is listed.
#include "tune/model_proposer.h"

#include <optional>
#include <vector>

#include <gtest/gtest.h>

namespace kopt::tune {
namespace {

// 5 x 4 configurations, all allowed.
kernel::planned_tune_space wide_space() {
  kernel::planned_tune_space tune;
  tune.space =
      kernel::read_tune_space("// kopt: tune(BLOCK, 32, 64, 128, 256, 512) tune(VEC, 1, 2, 4, 8)\n", "test");
  tune.allowed = tune.space.allowed([](std::string_view) { return std::nullopt; }, "test");
  return tune;
}

class ModelProposer : public ::testing::TestWithParam<const char*> {};

TEST_P(ModelProposer, UpcomingIsWhatNextProposesWhateverTheTimesThenNothing) {
  const kernel::planned_tune_space tune = wide_space();
  ASSERT_EQ(tune.allowed.size(), 20U);
  model_proposer proposer(GetParam(), tune, 3, 16);
  std::vector<measured_point> so_far;
  const std::vector<std::size_t> ahead = proposer.upcoming(so_far, 20);
  ASSERT_EQ(ahead.size(), 4U) << "a quarter of a budget of 16 is drawn at random";
  EXPECT_EQ(proposer.upcoming(so_far, 2), std::vector<std::size_t>(ahead.begin(), ahead.begin() + 2))
      << "at most 2";
  const std::optional<double> times[] = {3.0, std::nullopt, 0.5, 7.0};  // the second failed the judge
  for (std::size_t i = 0; i < ahead.size(); ++i) {
    const std::optional<std::size_t> next = proposer.next(so_far, {});
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(*next, ahead[i]) << "proposal " << i;
    so_far.push_back({*next, times[i]});
    EXPECT_EQ(proposer.upcoming(so_far, 20), std::vector<std::size_t>(ahead.begin() + i + 1, ahead.end()));
  }
  EXPECT_TRUE(proposer.upcoming(so_far, 20).empty()) << "the model's proposals depend on the times";
  EXPECT_TRUE(proposer.next(so_far, {}).has_value());
}

INSTANTIATE_TEST_SUITE_P(OptunaSamplers, ModelProposer, ::testing::Values("gp", "tpe"));

}  // namespace
}  // namespace kopt::tune
