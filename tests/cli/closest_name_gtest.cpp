#include "core/closest_name.h"

#include <gtest/gtest.h>

namespace kopt::cli {
namespace {

TEST(ClosestName, SuggestsOnlyLikelyTypos) {
  const std::vector<std::string> commands = {"preflight", "inspect", "compile", "bench", "profile", "analyze", "kb"};
  EXPECT_EQ(closest_name("bnch", commands), "bench");
  EXPECT_EQ(closest_name("profil", commands), "profile");
  EXPECT_EQ(closest_name("analyse", commands), "analyze");
  EXPECT_EQ(closest_name("xyz", commands), "");
  EXPECT_EQ(closest_name("bench", commands), "");  // an exact name is no typo
  EXPECT_EQ(closest_name("--jsn", {"--json", "--json-out", "--out"}), "--json");
}

}  // namespace
}  // namespace kopt::cli
