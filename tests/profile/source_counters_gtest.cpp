// ncu's source page with counters, read from real H200 exports (tests/data/ncu/h200/README.md).
#include "profile/source_counters.h"

#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "core/files.h"

namespace kopt::profile {
namespace {

std::vector<source_function> parse_fixture(const std::string& name) {
  return parse_source_counters(
      read_text_file(std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200" / (name + "_source.csv")));
}

const source_line& line_at(const source_function& f, const std::string& file_suffix, int line) {
  for (const auto& l : f.lines) {
    if (l.line == line && l.file.ends_with(file_suffix)) return l;
  }
  throw std::runtime_error(file_suffix + ":" + std::to_string(line) + " not found");
}

const source_line& hottest(const source_function& f) {
  const source_line* best = &f.lines.at(0);
  for (const auto& l : f.lines) {
    if (l.stall_samples > best->stall_samples) best = &l;
  }
  return *best;
}

TEST(SourceCounters, CudaKernelLinesWithTheirSamples) {
  const auto functions = parse_fixture("softmax_naive");
  ASSERT_EQ(functions.size(), 1u);
  const source_function& f = functions[0];
  EXPECT_EQ(f.name, "softmax_naive_kernel(const float *, float *, int, int)");
  // Only lines with instructions are listed: 15, 19, 20, 22, 27, 31, 34, 35, 36.
  ASSERT_EQ(f.lines.size(), 9u);
  EXPECT_EQ(f.lines[0].line, 15);
  EXPECT_EQ(f.lines[0].text, "__global__ void softmax_naive_kernel(const float* __restrict__ input,");
  EXPECT_EQ(f.stall_samples, 10884.0);

  const source_line& hot = hottest(f);
  EXPECT_EQ(hot.file, "/work/main/examples/softmax_naive.cu");
  EXPECT_EQ(hot.line, 35);
  EXPECT_EQ(hot.text, "for (int c = 0; c < cols; ++c) y[c] = expf(x[c] - m) * inv;");
  EXPECT_EQ(hot.stall_samples, 6431.0);
  EXPECT_EQ(hot.instructions_executed, 2001792.0);
  EXPECT_EQ(hot.top_stall, "long_sb");
  EXPECT_EQ(hot.top_stall_samples, 5905.0);

  EXPECT_EQ(line_at(f, "softmax_naive.cu", 27).stall_samples, 2113.0);
  EXPECT_EQ(line_at(f, "softmax_naive.cu", 31).stall_samples, 2334.0);
  // The prologue waits for its first instructions to arrive.
  EXPECT_EQ(line_at(f, "softmax_naive.cu", 15).top_stall, "no_inst");
  // A line with instructions but no samples has no reason.
  EXPECT_EQ(line_at(f, "softmax_naive.cu", 22).stall_samples, 0.0);
  EXPECT_EQ(line_at(f, "softmax_naive.cu", 22).top_stall, "");
}

TEST(SourceCounters, TritonKernelSpansTheUserFileAndTritonsLibrary) {
  const auto functions = parse_fixture("triton_softmax");
  ASSERT_EQ(functions.size(), 1u);  // two File Path blocks, one function
  const source_function& f = functions[0];
  EXPECT_EQ(f.name, "softmax_rows");
  ASSERT_EQ(f.lines.size(), 12u);
  EXPECT_EQ(f.stall_samples, 893.0);
  // The max reduction inlined from triton/language/standard.py is where the samples are.
  const source_line& hot = hottest(f);
  EXPECT_EQ(hot.file, "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py");
  EXPECT_EQ(hot.line, 170);
  EXPECT_EQ(hot.text, "return core.maximum(a, b)");
  EXPECT_EQ(hot.stall_samples, 436.0);
  EXPECT_EQ(hot.top_stall, "long_sb");
  EXPECT_EQ(line_at(f, "standard.py", 191).top_stall, "barrier");
  // ncu leaves the quotes of the source text unescaped; the line still reads.
  const source_line& load = line_at(f, "triton_softmax.py", 17);
  EXPECT_EQ(load.text, "x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float(\"inf\"))");
  EXPECT_EQ(load.stall_samples, 13.0);

  // The user's own file: the store line is its hottest.
  const source_line* user_hot = nullptr;
  double user_samples = 0;
  for (const auto& l : f.lines) {
    if (l.file != "/work/main/examples/triton_softmax.py") continue;
    user_samples += l.stall_samples;
    if (!user_hot || l.stall_samples > user_hot->stall_samples) user_hot = &l;
  }
  ASSERT_NE(user_hot, nullptr);
  EXPECT_EQ(user_samples, 178.0);
  EXPECT_EQ(user_hot->line, 20);
  EXPECT_EQ(user_hot->stall_samples, 70.0);
  EXPECT_EQ(user_hot->top_stall, "drain");
  EXPECT_EQ(user_hot->text.rfind("tl.store(out_ptr + row * out_stride + cols, numerator / tl.sum(", 0), 0u);
}

TEST(SourceCounters, AFunctionLaunchedTwiceSumsItsLaunches) {
  // scale(), add(), scale(): ncu prints scale's block once per launch.
  const auto functions = parse_fixture("three_launches");
  ASSERT_EQ(functions.size(), 2u);
  EXPECT_EQ(functions[0].name, "scale(float *, int, float)");
  EXPECT_EQ(functions[1].name, "add(float *, const float *, int)");
  ASSERT_EQ(functions[0].lines.size(), 4u);
  const source_line& body = line_at(functions[0], "k.cu", 4);
  EXPECT_EQ(body.stall_samples, 5221.0 + 5148.0);
  EXPECT_EQ(body.instructions_executed, 2 * 5242880.0);
  EXPECT_EQ(body.top_stall, "long_sb");
  EXPECT_EQ(functions[0].stall_samples, 107.0 + 662.0 + 10369.0 + 569.0);
  EXPECT_EQ(line_at(functions[1], "k.cu", 8).stall_samples, 6400.0);
  EXPECT_EQ(functions[1].stall_samples, 48.0 + 307.0 + 6400.0 + 294.0);
}

TEST(SourceCounters, ACudaOnlyViewHasNoCounters) {
  // The older `--print-source cuda` export: "File Name", then "Line No","Source" only.
  EXPECT_TRUE(parse_fixture("vector_add").empty());
  EXPECT_TRUE(parse_source_counters("").empty());
  EXPECT_TRUE(parse_source_counters("==ERROR== The source page is not available.\n").empty());
}

// A minimal page in ncu's layout: two stall columns and their not-issued twins.
constexpr const char* header =
    "\"Line No\",\"Source\",\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\","
    "\"Instructions Executed\",\"stall_long_sb\",\"stall_selected\",\"stall_wait\","
    "\"stall_long_sb (Not Issued)\",\"stall_wait (Not Issued)\"\n";

TEST(SourceCounters, QuotedCommasSeparatorsProseAndStrayRows) {
  const std::string page =
      std::string("==PROF== Connected\n") +
      "\"7\",\"a row before any block\",\"-\",\"-\",\"99\",\"1\",\"99\",\"0\",\"0\",\"0\",\"0\"\n"
      "\"File Path\",\"/src/k.cu\"\n"
      "\"Function Name\",\"k(int, float *)\"\n" +
      header +
      "\"12\",\"  s += f(a, \"\"b,c\"\");  \",\"-\",\"-\",\"1,234\",\"4,096\",\"1,000\",\"34\","
      "\"200\",\"900\",\"1,100\"\n"
      "\"\",\"\",\"0x7f00\",\"FFMA R1, R2, R3, R4\",\"1,234\",\"4,096\",\"1,000\",\"34\",\"200\","
      "\"900\",\"200\"\n"
      "\n"
      "\"13\",\"}\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"\n"
      "\"14\",\"return;\",\"-\",\"-\",\"5\",\"8\",\"0\",\"5\",\"0\",\"0\",\"0\"\n";
  const auto functions = parse_source_counters(page);
  ASSERT_EQ(functions.size(), 1u);
  const source_function& f = functions[0];
  EXPECT_EQ(f.name, "k(int, float *)");
  ASSERT_EQ(f.lines.size(), 3u);  // the stray row and the SASS row are not lines
  EXPECT_EQ(f.lines[0].file, "/src/k.cu");
  EXPECT_EQ(f.lines[0].line, 12);
  EXPECT_EQ(f.lines[0].text, "s += f(a, \"b,c\");");
  EXPECT_EQ(f.lines[0].stall_samples, 1234.0);
  EXPECT_EQ(f.lines[0].instructions_executed, 4096.0);
  EXPECT_EQ(f.lines[0].top_stall, "long_sb");  // stall_wait (Not Issued) is larger, but not a reason
  EXPECT_EQ(f.lines[0].top_stall_samples, 1000.0);
  EXPECT_EQ(f.lines[1].stall_samples, 0.0);  // "-": nothing counted
  EXPECT_EQ(f.lines[1].top_stall, "");
  // Only issuing samples: "selected" is named rather than nothing.
  EXPECT_EQ(f.lines[2].top_stall, "selected");
  EXPECT_EQ(f.stall_samples, 1239.0);
}

TEST(SourceCounters, UnescapedQuotesInTheSourceText) {
  const std::string page =
      std::string("\"File Path\",\"/src/k.py\"\n\"Function Name\",\"k\"\n") + header +
      "\"3\",\"y = f(\"a\") + x\",\"-\",\"-\",\"4\",\"1\",\"4\",\"0\",\"0\",\"0\",\"0\"\n"
      // Text holding "," cannot be told from a field boundary: skipped, not misread.
      "\"4\",\"s.split(\",\")\",\"-\",\"-\",\"9\",\"1\",\"9\",\"0\",\"0\",\"0\",\"0\"\n";
  const auto functions = parse_source_counters(page);
  ASSERT_EQ(functions.size(), 1u);
  ASSERT_EQ(functions[0].lines.size(), 1u);
  EXPECT_EQ(functions[0].lines[0].text, "y = f(\"a\") + x");
  EXPECT_EQ(functions[0].lines[0].stall_samples, 4.0);
}

TEST(SourceCounters, ABlockWithoutCountersBesideOneWithThem) {
  const std::string page = std::string("\"File Path\",\"/src/a.cu\"\n\"Function Name\",\"a\"\n") +
                           "\"Line No\",\"Source\"\n\"3\",\"int x = 0;\"\n" +
                           "\"File Path\",\"/src/b.cu\"\n\"Function Name\",\"b\"\n" + header +
                           "\"9\",\"x = y;\",\"-\",\"-\",\"2\",\"1\",\"0\",\"0\",\"2\",\"0\",\"2\"\n";
  const auto functions = parse_source_counters(page);
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].name, "b");
  EXPECT_EQ(functions[0].lines.at(0).top_stall, "wait");
}

}  // namespace
}  // namespace kopt::profile
