// What the kernel's process printed, as the bench result keeps it: whole when short, its end
// with a note when long, nothing when it printed nothing.
#include "pipeline/printed_output.h"

#include <gtest/gtest.h>

namespace kopt::pipeline {
namespace {

TEST(PrintedOutput, NothingPrintedIsNoField) { EXPECT_FALSE(printed_output_of(process_result{}).has_value()); }

TEST(PrintedOutput, AShortOutputIsKeptWholeWithoutANote) {
  process_result p;
  p.stdout_text = "hello from solve\n";
  p.stderr_text = "block 0 thread 0\n";
  const auto out = printed_output_of(p);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->stdout_text, p.stdout_text);
  EXPECT_EQ(out->stderr_text, p.stderr_text);
  EXPECT_EQ(out->stdout_bytes, 17u);
  EXPECT_FALSE(out->note);
  EXPECT_EQ(printed_output_text(*out),
            "--- standard output (17 bytes) ---\nhello from solve\n--- standard error (17 bytes) ---\nblock 0 thread 0\n");
}

TEST(PrintedOutput, ALongOutputKeepsItsLastLinesAndSaysWhatWasCut) {
  process_result p;
  for (int call = 0; call < 20000; ++call) p.stdout_text += "call " + std::to_string(call) + ": sum 42\n";
  const auto out = printed_output_of(p);
  ASSERT_TRUE(out);
  EXPECT_LE(out->stdout_text.size(), printed_output_kept_bytes);
  EXPECT_GT(out->stdout_text.size(), printed_output_kept_bytes - 512);
  EXPECT_EQ(out->stdout_text.rfind("call ", 0), 0u) << "it starts at a line";
  const std::string last = "call 19999: sum 42\n";
  EXPECT_EQ(out->stdout_text.substr(out->stdout_text.size() - last.size()), last);
  EXPECT_EQ(out->stdout_bytes, p.stdout_text.size());
  ASSERT_TRUE(out->note);
  EXPECT_EQ(out->note->rfind("cut: standard output: the last ", 0), 0u) << *out->note;
  EXPECT_NE(printed_output_text(*out).find("(cut: standard output: the last "), std::string::npos);
}

}  // namespace
}  // namespace kopt::pipeline
