#include "compile/arch.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::compile {
namespace {

TEST(Arch, ParsesTheCommonSpellings) {
  EXPECT_EQ(parse_arch("sm_90a").name, "sm_90a");
  EXPECT_EQ(parse_arch("90a").name, "sm_90a");
  EXPECT_EQ(parse_arch("SM_80").name, "sm_80");
  EXPECT_EQ(parse_arch("compute_86").name, "sm_86");
  EXPECT_EQ(parse_arch("sm_100a").major, 10);
  EXPECT_EQ(parse_arch("sm_100a").minor, 0);
}

TEST(Arch, RejectsNonsense) {
  EXPECT_THROW(parse_arch("hopper"), error);
  EXPECT_THROW(parse_arch("sm_9"), error);
  EXPECT_THROW(parse_arch(""), error);
}

TEST(Arch, DefaultIsSm90aOnHopperAndWithoutAGpu) {
  EXPECT_EQ(default_arch(std::nullopt).name, "sm_90a");
  EXPECT_EQ(default_arch(compute_capability{9, 0}).name, "sm_90a");
  EXPECT_EQ(default_arch(compute_capability{8, 0}).name, "sm_80");
  EXPECT_EQ(default_arch(compute_capability{8, 9}).name, "sm_89");
}

TEST(Arch, GencodeUsesTheArchSpecificForm) {
  EXPECT_EQ(gencode_flags(parse_arch("sm_90a")), std::vector<std::string>{"-gencode=arch=compute_90a,code=sm_90a"});
  EXPECT_EQ(gencode_flags(parse_arch("sm_80")), std::vector<std::string>{"-gencode=arch=compute_80,code=sm_80"});
}

TEST(Arch, Sm90aAndSm90MatchCapability90) {
  EXPECT_TRUE(arch_runs_on(parse_arch("sm_90a"), {9, 0}));
  EXPECT_TRUE(arch_runs_on(parse_arch("sm_90"), {9, 0}));
  EXPECT_FALSE(arch_runs_on(parse_arch("sm_80"), {9, 0}));
  EXPECT_TRUE(arch_runs_on(parse_arch("sm_80"), {8, 6}));
  EXPECT_FALSE(arch_runs_on(parse_arch("sm_86"), {8, 0}));
  EXPECT_FALSE(arch_runs_on(parse_arch("sm_90a"), {10, 0}));
}

}  // namespace
}  // namespace kopt::compile
