// Dimensions written as `--NAME VALUE` before the kernel path.
#include "cli/dimension_args.h"

#include <gtest/gtest.h>

namespace kopt::cli {
namespace {

TEST(AttachDimensionValues, UnknownOptionsTakeTheirNumber) {
  CLI::App sub("bench");
  std::string kernel;
  int gpu = 0;
  bool hot = false;
  sub.add_option("kernel", kernel);
  sub.add_option("--gpu", gpu);
  sub.add_flag("--hot", hot);
  sub.allow_extras();
  using words = std::vector<std::string>;
  EXPECT_EQ(attach_dimension_values(sub, {"--N", "5", "k.cu"}), (words{"--N=5", "k.cu"}));
  EXPECT_EQ(attach_dimension_values(sub, {"--alpha", "-2.5e-3", "k.cu", "--rows=4"}), (words{"--alpha=-2.5e-3", "k.cu", "--rows=4"}));
  // kopt's own options and flags keep their shape; a non-number is never taken as a value.
  EXPECT_EQ(attach_dimension_values(sub, {"--gpu", "1", "--hot", "k.cu"}), (words{"--gpu", "1", "--hot", "k.cu"}));
  EXPECT_EQ(attach_dimension_values(sub, {"--verbose", "k.cu"}), (words{"--verbose", "k.cu"}));
  EXPECT_EQ(attach_dimension_values(sub, {"k.cu", "--N"}), (words{"k.cu", "--N"}));
}

TEST(DimensionArgs, AfterTheSeparatorEveryFlagIsADimensionAndEveryWordAPositional) {
  CLI::App sub;
  int gpu = 0;
  sub.add_option("--gpu", gpu);
  sub.allow_extras();
  using words = std::vector<std::string>;
  // --gpu is kopt's before `--`, the kernel's after it (like --dim gpu=1).
  EXPECT_EQ(attach_dimension_values(sub, {"--gpu", "1", "--", "k.cu", "--gpu=2", "--seed", "7"}),
            (words{"--gpu", "1", "k.cu", "--dim", "gpu=2", "--dim", "seed=7"}));
  // A file whose name starts with '-' is named so that it cannot be read as an option.
  EXPECT_EQ(attach_dimension_values(sub, {"--", "-odd.cu"}), (words{"./-odd.cu"}));
  EXPECT_EQ(attach_dimension_values(sub, {"--", "/abs/k.cu"}), (words{"/abs/k.cu"}));
}

}  // namespace
}  // namespace kopt::cli
