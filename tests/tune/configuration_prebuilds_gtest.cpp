// The builds ahead, with the real nvcc: a configuration built while another is measured is in the
// compile cache when its bench asks for it, no more builds than allowed run at once, and one that
// does not compile leaves nothing behind for the bench to trip on.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"
#include "tune/configuration_prebuilds.h"

namespace kopt::tune {
namespace {

kernel::tune_configuration block_of(int block) {
  return kernel::tune_configuration{{{"BLOCK", block}}};
}

TEST(ConfigurationPrebuilds, WhatIsBuiltAheadIsInTheCompileCacheWhenTheBenchAsks) {
  testing::scratch_dir dir;
  ::setenv("KOPT_CACHE_DIR", (dir.path() / "cache").c_str(), 1);
  const std::string example = read_text_file(testing::source_dir() / "examples" / "vector_add.cu", "example");
  compile::compile_request base;
  base.kernel_file = dir.write("tunable_add.cu", "#ifndef BLOCK\n#define BLOCK 1\n#endif\n" + example);
  base.arch = "sm_90a";
  {
    configuration_prebuilds prebuilds(base, 2);
    EXPECT_TRUE(prebuilds.start(block_of(64)));
    EXPECT_TRUE(prebuilds.start(block_of(128)));
    EXPECT_FALSE(prebuilds.start(block_of(256))) << "two builds run already";
    EXPECT_TRUE(prebuilds.start(block_of(64))) << "started before";
    prebuilds.wait(block_of(64));
    prebuilds.wait(block_of(128));
  }
  for (const char* define : {"BLOCK=64", "BLOCK=128"}) {
    compile::compile_request asked = base;
    asked.defines.push_back(define);
    EXPECT_EQ(compile::compile_kernel(asked).status, compile::compile_status::cache_hit) << define;
  }
  compile::compile_request not_started = base;
  not_started.defines.push_back("BLOCK=256");
  EXPECT_EQ(compile::compile_kernel(not_started).status, compile::compile_status::built);
  ::unsetenv("KOPT_CACHE_DIR");
}

TEST(ConfigurationPrebuilds, ABuildThatFailsLeavesTheBenchToBuildAndReportIt) {
  testing::scratch_dir dir;
  ::setenv("KOPT_CACHE_DIR", (dir.path() / "cache").c_str(), 1);
  compile::compile_request base;
  base.kernel_file =
      dir.write("broken.cu", "#if BLOCK == 64\n#error no such block\n#endif\nextern \"C\" void solve() {}\n");
  base.arch = "sm_90a";
  {
    configuration_prebuilds prebuilds(base, 1);
    EXPECT_TRUE(prebuilds.start(block_of(64)));
    prebuilds.wait(block_of(64));
  }
  compile::compile_request asked = base;
  asked.defines.push_back("BLOCK=64");
  const compile::compile_result r = compile::compile_kernel(asked);
  EXPECT_EQ(r.status, compile::compile_status::failed);
  EXPECT_NE(r.compiler_output.find("no such block"), std::string::npos) << r.compiler_output;
  ::unsetenv("KOPT_CACHE_DIR");
}

}  // namespace
}  // namespace kopt::tune
