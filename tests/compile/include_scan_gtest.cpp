#include "compile/include_scan.h"

#include <gtest/gtest.h>

#include "support/kopt_process.h"

namespace kopt::compile {
namespace {

TEST(IncludeScan, FollowsLocalHeadersRecursivelyOnce) {
  testing::scratch_dir dir;
  const auto source = dir.write("k.cu",
                                "#include <cuda_runtime.h>\n#include \"common/a.cuh\"\n  # include \"b.h\"\n"
                                "#include \"missing.h\"\n");
  dir.write("common/a.cuh", "#include \"../b.h\"\n#include \"c.h\"\n");
  dir.write("common/c.h", "#include \"a.cuh\"\n");
  dir.write("b.h", "// leaf\n");
  const auto files = local_include_closure(source);
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].filename(), "k.cu");
  EXPECT_EQ(files[1], (dir.path() / "common/a.cuh").lexically_normal());
  EXPECT_EQ(files[2], (dir.path() / "b.h").lexically_normal());
  EXPECT_EQ(files[3], (dir.path() / "common/c.h").lexically_normal());
}

}  // namespace
}  // namespace kopt::compile
