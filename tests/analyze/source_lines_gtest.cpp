// The hottest source lines of a launch, from the H200 source pages with counters
// (tests/data/ncu/h200/README.md). The raw pages come from an earlier capture of the same
// kernels; the function names, which are all the matching uses, are the same.
#include <filesystem>

#include <gtest/gtest.h>

#include "analyze/analysis_markdown.h"
#include "analyze/analyzer.h"
#include "core/files.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"

namespace kopt::analyze {
namespace {

std::filesystem::path h200(const std::string& file) {
  return std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200" / file;
}

analysis analyse_case(const std::string& name, const std::string& backend, bool with_source = true) {
  analysis a;
  a.report = name + "_raw.csv";
  a.backend = backend;
  const auto raw = profile::parse_raw_csv(read_text_file(h200(name + "_raw.csv")), name);
  const auto details = profile::parse_details(read_text_file(h200(name + "_details.csv")));
  std::vector<profile::source_function> source;
  if (with_source) source = profile::parse_source_counters(read_text_file(h200(name + "_source.csv")));
  a.kernels = diagnose(raw, details, backend, source);
  return a;
}

TEST(HottestSourceLines, SoftmaxNaiveSpendsItsSamplesInTheThreeRowLoops) {
  const auto k = analyse_case("softmax_naive", "cuda").kernels.at(0);
  const auto& hot = k.hottest_source_lines;
  ASSERT_EQ(hot.size(), 5u);
  EXPECT_EQ(hot[0].file, "/work/main/examples/softmax_naive.cu");
  // The normalising loop (35), the sum (31), the max (27); then the prologue (15) and the bounds check (20).
  EXPECT_EQ(hot[0].line, 35);
  EXPECT_EQ(hot[1].line, 31);
  EXPECT_EQ(hot[2].line, 27);
  EXPECT_EQ(hot[3].line, 15);
  EXPECT_EQ(hot[4].line, 20);
  EXPECT_EQ(hot[0].stall_samples, 6431.0);
  EXPECT_NEAR(hot[0].share_pct, 100.0 * 6431 / 10884, 1e-9);
  EXPECT_NEAR(hot[1].share_pct, 21.44, 0.01);
  EXPECT_NEAR(hot[2].share_pct, 19.41, 0.01);
  EXPECT_EQ(hot[0].top_stall, "long_sb");
  EXPECT_EQ(hot[3].top_stall, "no_inst");
  EXPECT_EQ(hot[0].text, "for (int c = 0; c < cols; ++c) y[c] = expf(x[c] - m) * inv;");
}

TEST(HottestSourceLines, TritonSoftmaxLinesComeFromBothFiles) {
  const auto k = analyse_case("triton_softmax", "triton").kernels.at(0);
  const auto& hot = k.hottest_source_lines;
  ASSERT_EQ(hot.size(), 5u);
  const std::string library = "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py";
  const std::string user = "/work/main/examples/triton_softmax.py";
  EXPECT_EQ(hot[0].file, library);
  EXPECT_EQ(hot[0].line, 170);  // core.maximum inside tl.max
  EXPECT_NEAR(hot[0].share_pct, 100.0 * 436 / 893, 1e-9);
  EXPECT_EQ(hot[1].file, library);
  EXPECT_EQ(hot[1].line, 191);
  EXPECT_EQ(hot[1].top_stall, "barrier");
  EXPECT_EQ(hot[2].line, 263);
  EXPECT_EQ(hot[3].file, user);
  EXPECT_EQ(hot[3].line, 20);
  EXPECT_NEAR(hot[3].share_pct, 7.84, 0.01);
  EXPECT_EQ(hot[3].top_stall, "drain");
  // 96 characters of source: kept whole.
  EXPECT_EQ(hot[3].text,
            "tl.store(out_ptr + row * out_stride + cols, numerator / tl.sum(numerator, axis=0), mask=mask)");
  EXPECT_EQ(hot[4].file, user);
  EXPECT_EQ(hot[4].line, 19);
}

TEST(HottestSourceLines, MarkdownListsThemUnderTheKernel) {
  const std::string md = to_markdown(analyse_case("softmax_naive", "cuda"));
  // Lines under 1 % of the samples (15 and 20) are left to analysis.json.
  EXPECT_NE(
      md.find(
          "- **Hottest source lines** (% of stall samples, top stall):\n"
          "  - examples/softmax_naive.cu:35 59 % long_sb `for (int c = 0; c < cols; ++c) y[c] = expf(x[...`\n"
          "  - examples/softmax_naive.cu:31 21 % long_sb `for (int c = 0; c < cols; ++c) sum += expf(x[...`\n"
          "  - examples/softmax_naive.cu:27 19 % long_sb `for (int c = 0; c < cols; ++c) m = fmaxf(m, x...`\n"
          "- **Memory access:**"),
      std::string::npos)
      << md;
  const std::string triton = to_markdown(analyse_case("triton_softmax", "triton"));
  EXPECT_NE(triton.find("  - language/standard.py:170 49 % long_sb `return core.maximum(a, b)`\n"),
            std::string::npos)
      << triton;
  EXPECT_NE(
      triton.find(
          "  - examples/triton_softmax.py:20 8 % drain `tl.store(out_ptr + row * out_stride + cols, n...`\n"),
      std::string::npos)
      << triton;
  // Each kernel stays within about 2 KB with its hot lines.
  for (const std::string* text : {&md, &triton}) {
    EXPECT_LE(text->size() - text->find("\n## ["), 2048u) << *text;
  }
}

TEST(HottestSourceLines, NoneWithoutASourcePageOrWithoutCounters) {
  const auto a = analyse_case("softmax_naive", "cuda", false);
  EXPECT_TRUE(a.kernels.at(0).hottest_source_lines.empty());
  EXPECT_EQ(to_markdown(a).find("Hottest source lines"), std::string::npos);
  // The older cuda-only view of vector_add has the text but no counters.
  EXPECT_TRUE(analyse_case("vector_add", "cuda").kernels.at(0).hottest_source_lines.empty());
}

profile::raw_report one_launch(const std::string& kernel_name) {
  profile::kernel_launch k;
  k.id = "0";
  k.kernel_name = kernel_name;
  profile::raw_report r;
  r.launches.push_back(k);
  return r;
}

profile::source_function function(const std::string& name, double samples) {
  profile::source_line line;
  line.file = "/src/k.cu";
  line.line = 7;
  line.stall_samples = samples;
  return {name, {line}, samples};
}

TEST(HottestSourceLines, MatchedByNameOrByTheNameBeforeItsParameters) {
  const std::vector<profile::source_function> source = {function("k(int)", 3), function("k(float)", 5),
                                                        function("solo(int *, int)", 2)};
  const auto lines_of = [&](const std::string& kernel) {
    return diagnose(one_launch(kernel), std::nullopt, "cuda", source).at(0).hottest_source_lines;
  };
  EXPECT_EQ(lines_of("k(float)").at(0).stall_samples, 5.0);  // the same name: that overload
  EXPECT_TRUE(lines_of("k").empty());                        // two overloads of k: neither is guessed
  EXPECT_EQ(lines_of("solo").at(0).stall_samples, 2.0);      // one function named solo
  EXPECT_TRUE(lines_of("other(int)").empty());
}

TEST(HottestSourceLines, LaunchesOfOneFunctionShareItsLines) {
  const auto source = profile::parse_source_counters(read_text_file(h200("three_launches_source.csv")));
  profile::raw_report raw = one_launch("scale(float *, int, float)");
  raw.launches.push_back(raw.launches[0]);
  raw.launches[1].id = "2";
  const auto kernels = diagnose(raw, std::nullopt, "cuda", source);
  ASSERT_EQ(kernels.size(), 2u);
  ASSERT_EQ(kernels[0].hottest_source_lines.size(), 4u);
  EXPECT_EQ(kernels[0].hottest_source_lines[0].line, 4);
  EXPECT_NEAR(kernels[0].hottest_source_lines[0].share_pct, 100.0 * 10369 / 11707, 1e-9);
  EXPECT_EQ(kernels[1].hottest_source_lines[0].stall_samples,
            kernels[0].hottest_source_lines[0].stall_samples);
}

TEST(AnalysisMarkdown, AWholeProgramsReportIsCutToItsLongestLaunches) {
  analysis a = analyse_case("softmax_naive", "cuda");
  const kernel_diagnosis one = a.kernels.at(0);
  a.kernels.clear();
  for (int i = 0; i < 25; ++i) {
    kernel_diagnosis k = one;
    k.launch_id = std::to_string(i);
    k.launch.duration_ns = 1000.0 * (i == 7 ? 100 : i);  // launch 7 is the longest
    a.kernels.push_back(k);
  }
  const std::string md = to_markdown(a);
  EXPECT_NE(md.find("The report holds 25 launches: the 20 longest follow; the JSON file has every one."),
            std::string::npos);
  std::size_t sections = 0;
  for (std::size_t at = md.find("\n## ["); at != std::string::npos; at = md.find("\n## [", at + 1)) ++sections;
  EXPECT_EQ(sections, 20u);
  EXPECT_NE(md.find("\n## [7] "), std::string::npos) << "the longest is kept";
  EXPECT_EQ(md.find("\n## [0] "), std::string::npos) << "the shortest five are left out";
  EXPECT_LT(md.find("\n## [5] "), md.find("\n## [7] ")) << "in report order";
}

}  // namespace
}  // namespace kopt::analyze
