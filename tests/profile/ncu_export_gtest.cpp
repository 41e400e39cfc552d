// Exports through a stand-in ncu (fake_ncu.h).
#include "profile/ncu_export.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "profile/fake_ncu.h"
#include "support/kopt_process.h"

namespace kopt::profile {
namespace {
namespace fs = std::filesystem;
using testing::scratch_dir;

export_files files_in(const scratch_dir& dir) {
  return {dir.path() / "out" / "ncu_raw.csv", dir.path() / "out" / "ncu_details.csv",
          dir.path() / "out" / "ncu_source.csv"};
}

TEST(ExportReport, WritesTheThreePages) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\",\"Section Name\"'", "echo '\"Line\",\"Source\"'");
  const auto files = files_in(dir);
  const export_result r = export_report(ncu, dir.path() / "full.ncu-rep", files);
  EXPECT_TRUE(r.source_written);
  EXPECT_EQ(r.source_problem, "");
  EXPECT_EQ(read_text_file(files.raw_csv), "\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"0\",\"k(int)\"\n");
  EXPECT_EQ(read_text_file(files.details_csv), "\"ID\",\"Section Name\"\n");
  EXPECT_EQ(read_text_file(files.source_csv), "\"Line\",\"Source\"\n");
}

TEST(ExportReport, SourcePageIsOptional) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '==ERROR== source page not available' >&2; exit 1");
  const auto files = files_in(dir);
  const export_result r = export_report(ncu, dir.path() / "full.ncu-rep", files);
  EXPECT_FALSE(r.source_written);
  EXPECT_FALSE(fs::exists(files.source_csv));
  EXPECT_NE(r.source_problem.find("source page not available"), std::string::npos) << r.source_problem;
  EXPECT_TRUE(fs::exists(files.details_csv));
}

TEST(ExportReport, DetailsFailureIsAnError) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '==ERROR== cannot read report' >&2; exit 1", "true");
  const auto files = files_in(dir);
  try {
    export_report(ncu, dir.path() / "full.ncu-rep", files);
    FAIL() << "expected kopt::error";
  } catch (const error& e) {
    EXPECT_EQ(e.headline().rfind("ncu could not export full.ncu-rep to ncu_details.csv (exit code 1)", 0), 0u)
        << e.headline();
    EXPECT_NE(e.detail().find("cannot read report"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(files.details_csv));
}

}  // namespace
}  // namespace kopt::profile
