// The warnings picked out of a build's output, as nvcc 12/13, g++ and ptxas print them.
#include <gtest/gtest.h>

#include "compile/compiler_warnings.h"

namespace kopt::compile {
namespace {

TEST(CompilerWarnings, EachWarningKeepsTheLinesThatShowWhereAndNothingElse) {
  const std::string output =
      "k.cu(5): warning #177-D: variable \"unused\" was declared but never referenced\n"
      "      int unused = 0;\n"
      "          ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n"
      "k.cu:9:3: warning: unused variable 'y' [-Wunused-variable]\n"
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z3addPfi' for 'sm_90a'\n"
      "ptxas warning : Registers are spilled to local memory in function '_Z3addPfi', 8 bytes spill stores\n"
      "ptxas info    : Used 12 registers, used 0 barriers, 368 bytes cmem[0]\n";
  const std::vector<std::string> warnings = compiler_warnings(output);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0],
            "k.cu(5): warning #177-D: variable \"unused\" was declared but never referenced\n"
            "      int unused = 0;\n"
            "          ^");
  EXPECT_EQ(warnings[1], "k.cu:9:3: warning: unused variable 'y' [-Wunused-variable]");
  EXPECT_EQ(warnings[2].rfind("ptxas warning : Registers are spilled", 0), 0u) << warnings[2];
}

TEST(CompilerWarnings, AResourceReportAloneHasNone) {
  EXPECT_TRUE(compiler_warnings("ptxas info    : 0 bytes gmem\nptxas info    : Used 12 registers\n").empty());
  EXPECT_TRUE(compiler_warnings("").empty());
}

}  // namespace
}  // namespace kopt::compile
