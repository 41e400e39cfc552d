// Fingerprints must equal the Python toolkit's, so its memory file imports under the same keys:
// DESIGN.md's test vectors and its normalization rule.
#include "memory/strategy_fingerprint.h"

#include <gtest/gtest.h>

namespace kopt::memory {
namespace {

TEST(StrategyFingerprint, MatchesThePythonToolkitsVectors) {
  EXPECT_EQ(strategy_fingerprint("cuda", {"baseline"}), "40f2b8f0ca5ba355");
  EXPECT_EQ(strategy_fingerprint("cutlass", {"baseline"}), "d576b5ea15008131");
  EXPECT_EQ(strategy_fingerprint("cutlass", {"register_cached_exp", "rowwise_softmax_shape_specialization",
                                             "thread_retile_128", "vectorized_float4_io"}),
            "693f19f37331ba8b");
}

TEST(StrategyFingerprint, TagsAreNormalizedBeforeHashing) {
  EXPECT_EQ(normalize_tag("Vectorized  Float4\tIO"), "vectorized_float4_io");
  EXPECT_EQ(normalize_tag("warp-shuffle (reduce)!"), "warp-shuffle_reduce");
  EXPECT_EQ(normalize_tag("***"), "");
  EXPECT_EQ(normalize_tags({"b", "A", "a", "", "  ", "b"}), (std::vector<std::string>{"_", "a", "b"}));
  // Order, case and duplicates do not change a strategy.
  EXPECT_EQ(strategy_fingerprint("cutlass", {"Vectorized_Float4_IO", "thread_retile_128", "register_cached_exp",
                                             "rowwise_softmax_shape_specialization", "thread_retile_128"}),
            "693f19f37331ba8b");
  EXPECT_NE(strategy_fingerprint("cuda", {"baseline"}), strategy_fingerprint("triton", {"baseline"}));
}

}  // namespace
}  // namespace kopt::memory
