// `kopt: flops=EXPR` in a reference: evaluated at the run's dimensions, and refused with the
// file and line when it cannot be.
#include "kernel/flops_annotation.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::kernel {
namespace {

const std::vector<dimension_arg> matmul_dims = {{"M", "4096"}, {"N", "2048"}, {"K", "1024"}};

std::string refusal(std::string_view text, const std::vector<dimension_arg>& dims = matmul_dims) {
  try {
    annotated_flops("ref.py", text, dims);
  } catch (const error& e) {
    return e.headline();
  }
  return "";
}

TEST(FlopsAnnotation, APythonCommentGivesTheProblemsFlopsAtItsDimensions) {
  const auto flops = annotated_flops("ref.py", "import torch\n# kopt: flops=2*M*N*K \r\ndef reference(): pass\n", matmul_dims);
  ASSERT_TRUE(flops);
  EXPECT_DOUBLE_EQ(*flops, 2.0 * 4096 * 2048 * 1024);
}

TEST(FlopsAnnotation, WithoutOneThereIsNone) {
  EXPECT_FALSE(annotated_flops("ref.py", "# kopt: nothing here\n", matmul_dims));
}

TEST(FlopsAnnotation, MistakesAreRefusedWithTheFileAndLine) {
  EXPECT_EQ(refusal("\n# kopt: flops=2*M*N*Q\n").rfind("ref.py:2: kopt: flops=2*M*N*Q: ", 0), 0u)
      << refusal("\n# kopt: flops=2*M*N*Q\n");
  EXPECT_NE(refusal("# kopt: flops=2*M*(N\n").find("write an integer expression of the dimensions"), std::string::npos);
  EXPECT_NE(refusal("# kopt: flops=M*N*K*M*N*K\n").find("ref.py:1"), std::string::npos) << "an overflow";
  EXPECT_NE(refusal("# kopt: flops=M\n# kopt: flops=N\n").find("ref.py:2: a second `kopt: flops=`"), std::string::npos);
  EXPECT_NE(refusal("# kopt: flops=M\n", {{"M", "2.5"}}).find("ref.py:1"), std::string::npos) << "not an integer";
}

}  // namespace
}  // namespace kopt::kernel
