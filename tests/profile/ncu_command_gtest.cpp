#include "profile/ncu_command.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::profile {
namespace {

std::vector<std::string> capture(const ncu_capture_options& options) {
  return capture_argv("/usr/local/cuda/bin/ncu", options, "/out/full");
}

// The value following `flag` in argv, or "" when the flag is absent.
std::string value_of(const std::vector<std::string>& argv, const std::string& flag) {
  const auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}

std::size_t count_of(const std::vector<std::string>& argv, const std::string& word) {
  return static_cast<std::size_t>(std::count(argv.begin(), argv.end(), word));
}

TEST(NcuCaptureArgv, DefaultsAreOneFullPassInsideTheProfilerWindow) {
  const auto argv = capture({});
  const std::vector<std::string> expected_start = {"/usr/local/cuda/bin/ncu", "--profile-from-start", "off",
                                                   "--clock-control", "none", "--set", "full"};
  ASSERT_GE(argv.size(), expected_start.size());
  EXPECT_TRUE(std::equal(expected_start.begin(), expected_start.end(), argv.begin()));
  EXPECT_EQ(value_of(argv, "--import-source"), "yes");
  // The report goes to REPORT_BASE (ncu adds .ncu-rep), overwriting an older one.
  const std::vector<std::string> expected_end = {"-f", "-o", "/out/full"};
  EXPECT_TRUE(std::equal(expected_end.begin(), expected_end.end(), argv.end() - 3));
  // Nothing selects launches by count or name unless asked.
  EXPECT_EQ(count_of(argv, "--launch-skip"), 0u);
  EXPECT_EQ(count_of(argv, "--launch-count"), 0u);
  EXPECT_EQ(count_of(argv, "--kernel-name"), 0u);
  EXPECT_EQ(count_of(argv, "--section"), 0u);
  EXPECT_EQ(count_of(argv, "--metrics"), 1u);
}

TEST(NcuCaptureArgv, AddsTheMetricsTheAnalysisNeedsInTheSamePass) {
  const std::string metrics = value_of(capture({}), "--metrics");
  EXPECT_EQ(metrics,
            "dram__throughput.avg.pct_of_peak_sustained_elapsed,"
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,"
            "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,"
            "breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
}

TEST(NcuCaptureArgv, UserMetricsAreAppendedOnceInEitherForm) {
  ncu_capture_options options;
  options.metrics = {"l1tex__t_bytes.sum, lts__t_bytes.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                     "l1tex__t_bytes.sum"};
  const std::string metrics = value_of(capture(options), "--metrics");
  EXPECT_TRUE(metrics.ends_with(
      "breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes.sum,lts__t_bytes.sum"))
      << metrics;
  EXPECT_EQ(metrics.find("dram__throughput"), metrics.rfind("dram__throughput"));
}

TEST(NcuCaptureArgv, MapsSetSectionsAndSelection) {
  ncu_capture_options options;
  options.set = "detailed";
  options.sections = {"SourceCounters", "WarpStateStats"};
  options.kernel_name_regex = "softmax.*";
  options.launch_skip = 2;
  options.launch_count = 1;
  const auto argv = capture(options);
  EXPECT_EQ(value_of(argv, "--set"), "detailed");
  EXPECT_EQ(count_of(argv, "--section"), 2u);
  EXPECT_EQ(count_of(argv, "SourceCounters"), 1u);
  EXPECT_EQ(count_of(argv, "WarpStateStats"), 1u);
  EXPECT_EQ(value_of(argv, "--kernel-name"), "regex:softmax.*");
  EXPECT_EQ(value_of(argv, "--launch-skip"), "2");
  EXPECT_EQ(value_of(argv, "--launch-count"), "1");
}

TEST(NcuCaptureArgv, RegexPrefixIsNotDoubled) {
  ncu_capture_options options;
  options.kernel_name_regex = "regex:gemm";
  EXPECT_EQ(value_of(capture(options), "--kernel-name"), "regex:gemm");
}

TEST(ProfileCalls, OneCallUnlessTheLaunchFiltersNeedMore) {
  ncu_capture_options options;
  EXPECT_EQ(profile_calls_for(options, std::nullopt), 1);
  EXPECT_EQ(profile_calls_for(options, 4), 4);
  // The Python toolkit's --launch-skip 20 --launch-count 1: 21 calls hold at least 21 launches.
  options.launch_skip = 20;
  options.launch_count = 1;
  EXPECT_EQ(profile_calls_for(options, std::nullopt), 21);
  EXPECT_EQ(profile_calls_for(options, 2), 2);  // an explicit --profile-calls wins
  options.launch_skip.reset();
  options.launch_count = 3;
  EXPECT_EQ(profile_calls_for(options, std::nullopt), 3);
  options.launch_count.reset();
  options.launch_skip = 0;
  EXPECT_EQ(profile_calls_for(options, std::nullopt), 1);
}

TEST(CheckCaptureOptions, RefusesWhatCannotSelectAnything) {
  ncu_capture_options options;
  EXPECT_NO_THROW(check_capture_options(options));
  options.launch_count = 0;
  EXPECT_THROW(check_capture_options(options), error);
  options.launch_count = 1;
  options.launch_skip = -1;
  EXPECT_THROW(check_capture_options(options), error);
  options.launch_skip = 0;
  options.set = " ";
  EXPECT_THROW(check_capture_options(options), error);
  options.set = "full";
  options.sections = {""};
  EXPECT_THROW(check_capture_options(options), error);
}

TEST(NcuExportArgv, PagesAsTheAnalysisReadsThem) {
  EXPECT_EQ(export_argv("ncu", "/o/full.ncu-rep", export_page::raw),
            (std::vector<std::string>{"ncu", "-i", "/o/full.ncu-rep", "--csv", "--page", "raw", "--print-units", "base"}));
  EXPECT_EQ(export_argv("ncu", "/o/full.ncu-rep", export_page::details),
            (std::vector<std::string>{"ncu", "-i", "/o/full.ncu-rep", "--csv", "--page", "details", "--print-details",
                                      "all"}));
  EXPECT_EQ(export_argv("ncu", "/o/full.ncu-rep", export_page::source),
            (std::vector<std::string>{"ncu", "-i", "/o/full.ncu-rep", "--csv", "--page", "source", "--print-source",
                                      "cuda,sass"}));
}

TEST(NcuExportArgv, TextPagesAsNcuPrintsThemForPeople) {
  EXPECT_EQ(text_page_argv("ncu", "/o/full.ncu-rep", text_page::summary),
            (std::vector<std::string>{"ncu", "-i", "/o/full.ncu-rep", "--print-summary", "per-kernel"}));
  EXPECT_EQ(text_page_argv("ncu", "/o/full.ncu-rep", text_page::details),
            (std::vector<std::string>{"ncu", "-i", "/o/full.ncu-rep", "--page", "details"}));
}

TEST(ShellCommandLine, QuotesOnlyWhatAShellWouldSplitOrExpand) {
  EXPECT_EQ(shell_command_line({"ncu", "--kernel-name", "regex:a.*b", "-o", "/tmp/my dir/full", "it's", ""}),
            "ncu --kernel-name 'regex:a.*b' -o '/tmp/my dir/full' 'it'\\''s' ''");
  EXPECT_EQ(shell_command_line({"ncu", "--metrics", "a.sum,breakdown:b.pct"}), "ncu --metrics a.sum,breakdown:b.pct");
}

}  // namespace
}  // namespace kopt::profile
