#include "profile/staged_output.h"

#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt::profile {
namespace {
namespace fs = std::filesystem;
using testing::scratch_dir;

std::string read(const fs::path& file) { return read_text_file(file); }

std::size_t entries_in(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(StagedOutput, NothingReachesTheFinalNamesUntilPublished) {
  scratch_dir dir;
  const fs::path out = dir.path() / "new" / "profile";
  {
    staged_output files(out);
    ASSERT_TRUE(fs::is_directory(out));
    write_file_atomic(files.staged("ncu_raw.csv"), "raw");
    EXPECT_FALSE(fs::exists(out / "ncu_raw.csv"));
    EXPECT_EQ(files.staged("ncu_raw.csv").parent_path().parent_path(), out);
  }
  // Dropped without publishing: the staging folder is gone, nothing else appeared.
  EXPECT_EQ(entries_in(out), 0u);
}

TEST(StagedOutput, PublishRenamesInOrderAndRemovesStaleFiles) {
  scratch_dir dir;
  const fs::path out = dir.path();
  write_file_atomic(out / "ncu_source.csv", "from an older run");
  write_file_atomic(out / "ncu_raw.csv", "old raw");
  write_file_atomic(out / "unrelated.txt", "kept");
  staged_output files(out);
  write_file_atomic(files.staged("ncu_raw.csv"), "new raw");
  write_file_atomic(files.staged("profile.json"), "{}");
  const auto published = files.publish({"ncu_raw.csv", "ncu_source.csv", "profile.json"});
  EXPECT_EQ(published, (std::vector<fs::path>{out / "ncu_raw.csv", out / "profile.json"}));
  EXPECT_EQ(read(out / "ncu_raw.csv"), "new raw");
  EXPECT_FALSE(fs::exists(out / "ncu_source.csv"));  // not made this time: the old one must not linger
  EXPECT_EQ(read(out / "unrelated.txt"), "kept");
}

TEST(StagedOutput, AFailedRunLeavesThePreviousRunsFilesAlone) {
  scratch_dir dir;
  write_file_atomic(dir.path() / "profile.json", "previous");
  {
    staged_output files(dir.path());
    write_file_atomic(files.staged("profile.json"), "half");
  }
  EXPECT_EQ(read(dir.path() / "profile.json"), "previous");
  EXPECT_EQ(entries_in(dir.path()), 1u);
}

}  // namespace
}  // namespace kopt::profile
