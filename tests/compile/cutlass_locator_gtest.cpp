#include "compile/cutlass_locator.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "support/kopt_process.h"

namespace kopt::compile {
namespace {

TEST(CutlassLocator, ParsesTheVersionHeader) {
  EXPECT_EQ(parse_cutlass_version("#define CUTLASS_MAJOR 4\n#define CUTLASS_MINOR 2\n#define CUTLASS_PATCH 0 \n"),
            "4.2.0");
  EXPECT_EQ(parse_cutlass_version("#define CUTLASS_MAJOR 3\n#define CUTLASS_MINOR 5\n"), "3.5.0");
  EXPECT_EQ(parse_cutlass_version("nothing here"), "");
}

TEST(CutlassLocator, CutlassPathWinsAndFindsToolsUtil) {
  testing::scratch_dir dir;
  dir.write("include/cutlass/cutlass.h", "// stand-in\n");
  dir.write("include/cutlass/version.h", "#define CUTLASS_MAJOR 3\n#define CUTLASS_MINOR 9\n#define CUTLASS_PATCH 1\n");
  dir.write("tools/util/include/cutlass/util/x.h", "\n");
  ::setenv("CUTLASS_PATH", dir.path().c_str(), 1);
  const cutlass_search search = find_cutlass();
  ::unsetenv("CUTLASS_PATH");
  ASSERT_TRUE(search.headers.has_value());
  EXPECT_EQ(search.headers->version, "3.9.1");
  EXPECT_EQ(search.headers->found_via, "CUTLASS_PATH");
  EXPECT_EQ(search.headers->include_dir, dir.path() / "include");
  ASSERT_TRUE(search.headers->util_include_dir.has_value());
}

TEST(CutlassLocator, NotFoundSaysWhereItLooked) {
  ::setenv("CUTLASS_PATH", "/nonexistent/cutlass", 1);
  ::setenv("KOPT_PYTHON", "/bin/false", 1);  // hides a pip-installed nvidia-cutlass
  const cutlass_search search = find_cutlass();
  std::string message;
  if (!search.headers) {
    try {
      require_cutlass();
    } catch (const error& e) {
      message = e.headline() + "\n" + e.detail();
    }
  }
  ::unsetenv("CUTLASS_PATH");
  ::unsetenv("KOPT_PYTHON");
  if (search.headers) GTEST_SKIP() << "CUTLASS is installed under a standard prefix on this machine";
  EXPECT_NE(message.find("CUTLASS headers not found"), std::string::npos);
  EXPECT_NE(message.find("/nonexistent/cutlass/include (CUTLASS_PATH)"), std::string::npos);
  EXPECT_NE(message.find("nvidia-cutlass"), std::string::npos);
}

}  // namespace
}  // namespace kopt::compile
