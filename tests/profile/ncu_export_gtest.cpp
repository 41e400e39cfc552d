// Exports through a stand-in ncu: a shell script that answers `-i REPORT --csv --page PAGE`
// the way ncu does, and the text pages (`--print-summary per-kernel`, `--page details` without
// --csv), or fails where a test wants it to.
#include "profile/ncu_export.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt::profile {
namespace {
namespace fs = std::filesystem;
using testing::scratch_dir;

// `source_behaviour` is shell code run for --page source, `summary_behaviour` for the summary.
fs::path fake_ncu(const scratch_dir& dir, const std::string& details_behaviour, const std::string& source_behaviour,
                  const std::string& summary_behaviour = "echo 'k(int) summary'") {
  const fs::path script = dir.write("ncu", "#!/bin/sh\n"
                                           "page=''; csv=''\n"
                                           "while [ $# -gt 0 ]; do\n"
                                           "  [ \"$1\" = --page ] && page=$2\n"
                                           "  [ \"$1\" = --csv ] && csv=1\n"
                                           "  [ \"$1\" = --print-summary ] && page=summary\n"
                                           "  shift\n"
                                           "done\n"
                                           "[ -z \"$csv\" ] && [ \"$page\" = details ] && page=details_text\n"
                                           "case $page in\n"
                                           "  summary) " + summary_behaviour + " ;;\n"
                                           "  details_text) echo 'Section: GPU Speed Of Light Throughput' ;;\n"
                                           "  raw) echo '\"ID\",\"Kernel Name\"'; echo '\"\",\"\"'; echo '\"0\",\"k(int)\"' ;;\n"
                                           "  details) " + details_behaviour + " ;;\n"
                                           "  source) " + source_behaviour + " ;;\n"
                                           "esac\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

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

TEST(ExportReport, WritesTheTextPagesForPeopleWhenAskedFor) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'");
  export_files files = files_in(dir);
  files.summary_txt = dir.path() / "out" / "full_summary.txt";
  files.details_txt = dir.path() / "out" / "full_details.txt";
  const export_result r = export_report(ncu, dir.path() / "full.ncu-rep", files);
  EXPECT_TRUE(r.summary_written);
  EXPECT_TRUE(r.details_text_written);
  EXPECT_EQ(read_text_file(files.summary_txt), "k(int) summary\n");
  EXPECT_EQ(read_text_file(files.details_txt), "Section: GPU Speed Of Light Throughput\n");
  EXPECT_EQ(read_text_file(files.details_csv), "\"ID\"\n") << "the CSV page is still the CSV";
}

TEST(ExportReport, ATextPageNcuCannotPrintIsLeftOutNotAnError) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'", "echo '==ERROR== no summary' >&2; exit 1");
  export_files files = files_in(dir);
  files.summary_txt = dir.path() / "out" / "full_summary.txt";
  const export_result r = export_report(ncu, dir.path() / "full.ncu-rep", files);
  EXPECT_FALSE(r.summary_written);
  EXPECT_FALSE(fs::exists(files.summary_txt));
  EXPECT_FALSE(r.details_text_written) << "not asked for";
  EXPECT_TRUE(fs::exists(files.details_csv));
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
