// The orders kopt tune measures configurations in, and the kernel text a configuration is
// written into.
#include "tune/ordered_proposer.h"
#include "tune/tune_order.h"
#include "tune/tune_strategy.h"

#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "core/error.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace {

TEST(TuneOrder, ExhaustiveTakesTheConfigurationsAsListed) {
  EXPECT_EQ(tune_order(4, "exhaustive", 9), (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(TuneOrder, RandomIsAPermutationFixedByTheSeed) {
  const std::vector<std::size_t> a = tune_order(50, "random", 7);
  EXPECT_EQ(a, tune_order(50, "random", 7)) << "a repeated tune measures the same configurations";
  EXPECT_NE(a, tune_order(50, "random", 8));
  std::vector<std::size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> all(50);
  std::iota(all.begin(), all.end(), std::size_t{0});
  EXPECT_EQ(sorted, all) << "every configuration once";
  EXPECT_NE(a, all) << "not the listed order";
  // A budget's first ten come from all over the space, not from its start.
  EXPECT_GT(*std::max_element(a.begin(), a.begin() + 10), 25U);
}

TEST(TuneOrder, AnUnknownStrategyNamesTheKnownOnes) {
  try {
    make_tune_proposer("bayes", kernel::planned_tune_space{}, 0, std::nullopt);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "--strategy bayes: kopt tune knows exhaustive, random, gp, tpe");
  }
}

TEST(TunedSource, TheValuesComeFirstGuardedSoThatACommandLineDefinitionStillWins) {
  const kernel::tune_configuration c{{{"BLOCK", 128}, {"VEC", 4}}};
  EXPECT_EQ(tuned_source("// kernel\n", c, kernel::backend::cuda),
            "// kopt tune: BLOCK=128 VEC=4\n"
            "#ifndef BLOCK\n#define BLOCK 128\n#endif\n"
            "#ifndef VEC\n#define VEC 4\n#endif\n"
            "// kernel\n");
}

TEST(TunedSource, ATritonModuleEndsWithThePinCalledWithTheValues) {
  const kernel::tune_configuration c{{{"BLOCK", 128}, {"num_warps", 4}}};
  const std::string tuned = tuned_source("import triton\nX = 1", c, kernel::backend::triton);
  EXPECT_EQ(tuned.rfind("import triton\nX = 1\n\n\n# kopt tune: BLOCK=128 num_warps=4\n", 0), 0U) << tuned;
  EXPECT_NE(tuned.find("def _kopt_pin(namespace, values):"), std::string::npos) << tuned;
  const std::string call = "\n_kopt_pin(globals(), {\"BLOCK\": 128, \"num_warps\": 4})\n";
  EXPECT_EQ(tuned.substr(tuned.size() - call.size()), call) << "the call comes last, after the module's text";
}

}  // namespace
}  // namespace kopt::tune

namespace kopt::tune {
namespace {

TEST(OrderedProposer, ProposesInItsOrderAndSkipsWhatWasMeasuredOrCached) {
  ordered_proposer exhaustive(4, "exhaustive", 0);
  std::vector<measured_point> so_far;
  EXPECT_EQ(exhaustive.next(so_far, {}), 0U);
  so_far = {{0, 1.0}, {2, std::nullopt}};  // 2 read from the cache, not proposed
  EXPECT_EQ(exhaustive.next(so_far, {}), 1U);
  so_far.push_back({1, 2.0});
  EXPECT_EQ(exhaustive.next(so_far, {}), 3U);
  so_far.push_back({3, 0.5});
  EXPECT_EQ(exhaustive.next(so_far, {}), std::nullopt) << "every configuration seen";
}

TEST(OrderedProposer, AConfigurationBeingMeasuredOnAnotherGpuIsNotProposedAgain) {
  ordered_proposer exhaustive(4, "exhaustive", 0);
  EXPECT_EQ(exhaustive.next({}, {0, 1}), 2U);
  EXPECT_EQ(exhaustive.next({{0, 1.0}}, {}), 1U) << "pending only while it is measured";
  EXPECT_EQ(exhaustive.next({{0, 1.0}}, {1, 2, 3}), std::nullopt);
}

TEST(OrderedProposer, UpcomingListsWhatItWillProposeNextFromTheNextOneOn) {
  ordered_proposer exhaustive(5, "exhaustive", 0);
  const std::vector<measured_point> so_far = {{0, 1.0}, {2, 1.0}};
  EXPECT_EQ(exhaustive.upcoming(so_far, 2), (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(exhaustive.upcoming(so_far, 9), (std::vector<std::size_t>{1, 3, 4}));
  EXPECT_EQ(exhaustive.next(so_far, {}), 1U) << "asking ahead changes nothing";
}

}  // namespace
}  // namespace kopt::tune
