#include "core/mapped_file.h"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

std::string text_of(const mapped_file& file) {
  return {reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size()};
}

TEST(MappedFile, ShowsTheFilesBytesAndSurvivesAMove) {
  testing::scratch_dir dir;
  write_file_atomic(dir.path() / "out.bin", "0123456789");
  mapped_file first(dir.path() / "out.bin");
  ASSERT_EQ(first.bytes().size(), 10u);
  EXPECT_EQ(text_of(first), "0123456789");
  mapped_file moved(std::move(first));
  EXPECT_TRUE(first.bytes().empty());  // NOLINT(bugprone-use-after-move): the moved-from state is part of the contract
  EXPECT_EQ(text_of(moved), "0123456789");
}

TEST(MappedFile, AnEmptyFileIsAnEmptySpan) {
  testing::scratch_dir dir;
  write_file_atomic(dir.path() / "empty.bin", "");
  EXPECT_TRUE(mapped_file(dir.path() / "empty.bin").bytes().empty());
}

TEST(MappedFile, AMissingFileOrAFolderIsAnErrorNamingIt) {
  testing::scratch_dir dir;
  try {
    mapped_file missing(dir.path() / "none.bin");
    FAIL() << "no error for a missing file";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "cannot open " + (dir.path() / "none.bin").string() + ": No such file or directory");
  }
  try {
    mapped_file folder(dir.path());
    FAIL() << "no error for a folder";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), dir.path().string() + " is not a regular file");
  }
}

}  // namespace
}  // namespace kopt
