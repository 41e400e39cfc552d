// Reading compute-sanitizer's report, and refusing unknown tools, without a GPU.
#include "pipeline/sanitizer_pass.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::pipeline {
namespace {

TEST(SanitizerOutput, MemcheckErrorsAndTheirReport) {
  const std::string output =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __shared__ write of size 4 bytes\n"
      "=========     at k(const float *, float *, int)+0x1b0 in /tmp/k.cu:9\n"
      "=========     by thread (255,0,0) in block (3,0,0)\n"
      "=========     Address 0x400 is out of bounds\n"
      "=========\n"
      "kopt: some output of the program itself\n"
      "========= ERROR SUMMARY: 1,024 errors\n";
  const sanitizer_findings f = parse_sanitizer_output(output);
  EXPECT_EQ(f.errors, 1024);
  ASSERT_EQ(f.report.size(), 4u);
  EXPECT_EQ(f.report[0], "Invalid __shared__ write of size 4 bytes");
  EXPECT_EQ(f.report[1], "at k(const float *, float *, int)+0x1b0 in /tmp/k.cu:9");
}

TEST(SanitizerOutput, RacecheckSummary) {
  const sanitizer_findings f = parse_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at k(float *)+0x90 in /tmp/r.cu:6\n"
      "=========     and Read access at k(float *)+0xd0 in /tmp/r.cu:7 [248 hazards]\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
  EXPECT_EQ(f.errors, 1);
  EXPECT_EQ(f.report.size(), 2u);
}

TEST(SanitizerOutput, CleanRunAndMissingSummary) {
  EXPECT_EQ(parse_sanitizer_output("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n").errors, 0);
  EXPECT_EQ(parse_sanitizer_output("no sanitizer here\n").errors, -1);
}

TEST(SanitizerTool, UnknownToolIsAUsageError) {
  EXPECT_NO_THROW(check_sanitizer_tool("memcheck"));
  EXPECT_NO_THROW(check_sanitizer_tool("racecheck"));
  try {
    check_sanitizer_tool("leakcheck");
    FAIL() << "accepted an unknown tool";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(),
              "--sanitize leakcheck: not a compute-sanitizer tool; use memcheck, racecheck, initcheck or synccheck");
  }
}

}  // namespace
}  // namespace kopt::pipeline
