// Whole-program tests of `kopt analyze` and `kopt kb`: the real binary on the H200 exports.
#include <filesystem>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

fs::path ncu_data(const std::string& name) { return fs::path(KOPT_TEST_DATA_DIR) / "ncu" / name; }

// Copies a case's raw and details CSV into the scratch folder (analysis files go beside them).
fs::path copy_case(const scratch_dir& dir, const std::string& name) {
  for (const char* page : {"_raw.csv", "_details.csv"}) {
    fs::copy_file(ncu_data("h200/" + name + page), dir.path() / (name + page));
  }
  return dir.path() / (name + "_raw.csv");
}

TEST(AnalyzeCommand, OneLinePerKernelAndBothFilesBesideTheReport) {
  scratch_dir dir;
  const auto raw = copy_case(dir, "histogram");
  const auto r = run_kopt({"analyze", raw.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text,
            "[0] zero_kernel(int *, int): launch (SM 0.0 %, memory 0.5 %)\n"
            "    first to try: Launch enough blocks to fill every SM (kopt kb show cuda-more-blocks)\n"
            "[1] histogram_shared_kernel(const int *, int *, int, int): launch (SM 21.0 %, memory 37.5 %)\n"
            "    first to try: Launch enough blocks to fill every SM (kopt kb show cuda-more-blocks)\n"
            "wrote histogram_analysis.md and histogram_analysis.json in " + dir.path().string() + "\n");
  const auto doc = nlohmann::json::parse(read_text_file(dir.path() / "histogram_analysis.json"));
  EXPECT_EQ(doc["schema"], "kopt.analysis/v3");
  EXPECT_EQ(doc["details_file"], (dir.path() / "histogram_details.csv").string());
  ASSERT_EQ(doc["kernels"].size(), 2u);
  EXPECT_EQ(doc["kernels"][1]["class"], "launch");
  EXPECT_EQ(doc["kernels"][1]["launch"]["waves_per_sm"], 0.97);
  EXPECT_EQ(doc["kernels"][1]["ncu_cross_check"]["agrees"], true);
  // No source page beside the raw CSV: no hot lines, and no mention of them.
  EXPECT_EQ(doc["source_file"], "");
  EXPECT_EQ(doc["kernels"][1]["hottest_source_lines"], nlohmann::json::array());
  const std::string md = read_text_file(dir.path() / "histogram_analysis.md");
  EXPECT_NE(md.find("## [1] histogram_shared_kernel(const int *, int *, int, int) — launch"), std::string::npos) << md;
  EXPECT_NE(md.find("ncu SOLBottleneck:** agrees"), std::string::npos) << md;
  EXPECT_EQ(md.find("Hottest source lines"), std::string::npos) << md;
}

// -v adds why each launch has its class and the recommendations after the first, in rank order.
TEST(AnalyzeCommand, VerboseAddsTheReasonAndEveryRecommendation) {
  scratch_dir dir;
  const auto raw = copy_case(dir, "histogram");
  const auto plain = run_kopt({"analyze", raw.string()});
  const auto verbose = run_kopt({"analyze", raw.string(), "-v"});
  ASSERT_EQ(verbose.exit_code, 0) << verbose.stderr_text;
  const auto doc = nlohmann::json::parse(read_text_file(dir.path() / "histogram_analysis.json"));
  ASSERT_EQ(doc["kernels"].size(), 2u);
  const auto& recommendations = doc["kernels"][1]["recommendations"];
  ASSERT_GE(recommendations.size(), 2u);
  const std::string second = fmt::format("    then: {} (kopt kb show {})", recommendations[1]["title"].get<std::string>(),
                                         recommendations[1]["id"].get<std::string>());
  EXPECT_NE(verbose.stdout_text.find(second), std::string::npos) << verbose.stdout_text;
  EXPECT_EQ(plain.stdout_text.find(second), std::string::npos) << plain.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("    why: " + doc["kernels"][1]["reason"].get<std::string>()), std::string::npos)
      << verbose.stdout_text;
  EXPECT_GT(verbose.stdout_text.size(), plain.stdout_text.size());
}

TEST(AnalyzeCommand, TwoReportsInOneFolderKeepTheirOwnFiles) {
  scratch_dir dir;
  const auto histogram = copy_case(dir, "histogram");
  const auto gemm = copy_case(dir, "cutlass_gemm");
  ASSERT_EQ(run_kopt({"analyze", histogram.string()}).exit_code, 0);
  ASSERT_EQ(run_kopt({"analyze", gemm.string()}).exit_code, 0);
  const auto h = nlohmann::json::parse(read_text_file(dir.path() / "histogram_analysis.json"));
  const auto g = nlohmann::json::parse(read_text_file(dir.path() / "cutlass_gemm_analysis.json"));
  EXPECT_EQ(h["report"], histogram.string());
  EXPECT_EQ(g["report"], gemm.string());
  EXPECT_FALSE(fs::exists(dir.path() / "analysis.json")) << "kopt profile's name is for its own ncu_raw.csv";
}

// As kopt profile leaves them: ncu_raw.csv, ncu_details.csv and ncu_source.csv side by side.
TEST(AnalyzeCommand, HottestSourceLinesFromTheSourcePageBesideTheRawCsv) {
  scratch_dir dir;
  for (const char* page : {"raw", "details", "source"}) {
    fs::copy_file(ncu_data(std::string("h200/softmax_naive_") + page + ".csv"),
                  dir.path() / (std::string("ncu_") + page + ".csv"));
  }
  const auto r = run_kopt({"analyze", (dir.path() / "ncu_raw.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(read_text_file(dir.path() / "analysis.json"));
  EXPECT_EQ(doc["source_file"], (dir.path() / "ncu_source.csv").string());
  const auto& hot = doc["kernels"][0]["hottest_source_lines"];
  ASSERT_EQ(hot.size(), 5u);
  EXPECT_EQ(hot[0]["file"], "/work/main/examples/softmax_naive.cu");
  EXPECT_EQ(hot[0]["line"], 35);
  EXPECT_EQ(hot[0]["stall_samples"], 6431.0);
  EXPECT_NEAR(hot[0]["share_pct"].get<double>(), 59.09, 0.01);
  EXPECT_EQ(hot[0]["top_stall"], "long_sb");
  EXPECT_EQ(hot[1]["line"], 31);
  EXPECT_EQ(hot[2]["line"], 27);
  const std::string md = read_text_file(dir.path() / "analysis.md");
  EXPECT_NE(md.find("  - examples/softmax_naive.cu:35 59 % long_sb "
                    "`for (int c = 0; c < cols; ++c) y[c] = expf(x[...`\n"),
            std::string::npos)
      << md;
  EXPECT_LE(md.size() - md.find("\n## [0]"), 2048u) << md;  // the kernel's part: 2 KB at most
}

// A stand-in ncu that answers `-i R --csv --page PAGE` with a case's exports, and fails for
// the source page when `source_fails` (an ncu that cannot print it).
fs::path fake_ncu(const scratch_dir& dir, const std::string& name, bool source_fails) {
  const auto page = [&](const char* p) {
    return "cat '" + ncu_data("h200/" + name + "_" + p + ".csv").string() + "'";
  };
  const std::string source = source_fails ? "echo '==ERROR== no source' >&2; exit 1" : page("source");
  const fs::path script = dir.write("ncu", "#!/bin/sh\n"
                                           "page=''\n"
                                           "while [ $# -gt 0 ]; do [ \"$1\" = --page ] && page=$2; shift; done\n"
                                           "case $page in\n"
                                           "  raw) " + page("raw") + " ;;\n"
                                           "  details) " + page("details") + " ;;\n"
                                           "  source) " + source + " ;;\n"
                                           "  *) echo 'Version 2025.3.1.0' ;;\n"
                                           "esac\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

TEST(AnalyzeCommand, ReportExportsItsSourcePageToo) {
  scratch_dir dir;
  const auto report = dir.write("full.ncu-rep", "read by the stand-in ncu only");
  const auto ncu = fake_ncu(dir, "triton_softmax", false);
  const auto r = run_kopt({"analyze", report.string(), "--ncu-bin", ncu.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["source_file"], report.string());
  const auto& hot = doc["kernels"][0]["hottest_source_lines"];
  ASSERT_EQ(hot.size(), 5u);
  EXPECT_EQ(hot[0]["file"], "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py");
  EXPECT_EQ(hot[0]["line"], 170);
  EXPECT_EQ(hot[3]["file"], "/work/main/examples/triton_softmax.py");
  EXPECT_EQ(hot[3]["line"], 20);

  const auto no_source = fake_ncu(dir, "triton_softmax", true);
  const auto without = run_kopt({"analyze", report.string(), "--ncu-bin", no_source.string(), "--json"});
  ASSERT_EQ(without.exit_code, 0) << without.stderr_text;
  const auto plain = nlohmann::json::parse(without.stdout_text);
  EXPECT_EQ(plain["source_file"], "");
  EXPECT_TRUE(plain["kernels"][0]["hottest_source_lines"].empty());
}

TEST(AnalyzeCommand, ASourcePageWithoutCountersAddsNothing) {
  scratch_dir dir;
  const auto raw = copy_case(dir, "vector_add");
  fs::copy_file(ncu_data("h200/vector_add_source.csv"), dir.path() / "vector_add_source.csv");
  const auto r = run_kopt({"analyze", raw.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["source_file"], "");
  EXPECT_TRUE(doc["kernels"][0]["hottest_source_lines"].empty());
}

TEST(AnalyzeCommand, JsonToStdoutAndOutDirAndBackendGuess) {
  scratch_dir dir;
  const auto raw = copy_case(dir, "cutlass_gemm");
  const auto out = dir.path() / "out";
  const auto r = run_kopt({"analyze", raw.string(), "--json", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["backend"], "cutlass");
  EXPECT_EQ(doc["base_units"], true);
  const auto& k = doc["kernels"][0];
  EXPECT_EQ(k["class"], "compute");
  EXPECT_EQ(k["at_hardware_limit"], true);
  EXPECT_EQ(k["tensor_cores"]["instructions"], "wgmma");
  EXPECT_EQ(k["recommendations"][0]["backend"], "cutlass");
  EXPECT_TRUE(fs::exists(out / "cutlass_gemm_analysis.md"));
  EXPECT_TRUE(fs::exists(out / "cutlass_gemm_analysis.json"));
  // About 2 KB per kernel: an agent reads it.
  EXPECT_LT(fs::file_size(out / "cutlass_gemm_analysis.md"), 2300u);
}

TEST(AnalyzeCommand, AutoScaledExportWithTextDetails) {
  scratch_dir dir;
  for (const char* f : {"torch_reduce_full_raw.csv", "torch_reduce_full_details.txt"}) {
    fs::copy_file(ncu_data(f), dir.path() / f);
  }
  const auto r = run_kopt({"analyze", (dir.path() / "torch_reduce_full_raw.csv").string(), "--json", "--backend", "triton"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["details_format"], "text");
  EXPECT_EQ(doc["base_units"], false);
  EXPECT_EQ(doc["backend"], "triton");
  EXPECT_EQ(doc["kernels"][0]["launch"]["duration_ns"], 12224.0);
}

TEST(AnalyzeCommand, BadInputsNameTheProblem) {
  scratch_dir dir;
  const auto missing = run_kopt({"analyze", (dir.path() / "nope_raw.csv").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(first_line(missing.stderr_text).find("nope_raw.csv not found"), std::string::npos) << missing.stderr_text;

  const auto table = dir.write("table.csv", "name,value\nx,1\n");
  const auto not_ncu = run_kopt({"analyze", table.string()});
  EXPECT_EQ(not_ncu.exit_code, 2);
  EXPECT_NE(first_line(not_ncu.stderr_text).find("is not an Nsight Compute raw CSV export"), std::string::npos);

  const auto empty = dir.write("empty_raw.csv", "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"ns\"\n");
  const auto no_kernels = run_kopt({"analyze", empty.string()});
  EXPECT_EQ(no_kernels.exit_code, 2);
  EXPECT_NE(first_line(no_kernels.stderr_text).find("holds no profiled kernel launch"), std::string::npos);

  const auto raw = copy_case(dir, "vector_add");
  const auto backend = run_kopt({"analyze", raw.string(), "--backend", "opencl"});
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(first_line(backend.stderr_text).find("unknown backend \"opencl\": use one of cuda, cutlass, triton"),
            std::string::npos);
}

TEST(AnalyzeCommand, APageWithoutTheSpeedOfLightMetricsIsRefusedNotClassified) {
  scratch_dir dir;
  copy_case(dir, "vector_add");
  // The details page passed as the raw one.
  const auto details = run_kopt({"analyze", (dir.path() / "vector_add_details.csv").string()});
  EXPECT_EQ(details.exit_code, 2);
  EXPECT_NE(first_line(details.stderr_text).find("vector_add_details.csv is Nsight Compute's details page (a row per "
                                                "metric), not its raw page"),
            std::string::npos)
      << details.stderr_text;
  // A raw page whose every metric reads n/a.
  const std::string raw = read_text_file(dir.path() / "vector_add_raw.csv");
  const auto header_end = raw.find('\n');
  const auto units_end = raw.find('\n', header_end + 1);
  std::string blanked = raw.substr(0, units_end + 1);
  std::string row = raw.substr(units_end + 1);
  std::size_t cell = 0;
  std::string out_row;
  bool quoted = false;
  for (const char c : row) {  // cells 11 and on (the metrics) become n/a
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      out_row += cell < 11 ? "," : "\"n/a\",";
      ++cell;
      continue;
    }
    if (cell < 11 || c == '\n') out_row += c;
  }
  const auto na = dir.write("na_raw.csv", blanked + out_row);
  const auto empty = run_kopt({"analyze", na.string()});
  EXPECT_EQ(empty.exit_code, 2) << empty.stdout_text;
  EXPECT_NE(first_line(empty.stderr_text).find("na_raw.csv has no launch with the speed-of-light metrics"),
            std::string::npos)
      << empty.stderr_text;
  EXPECT_FALSE(fs::exists(dir.path() / "na_analysis.json")) << "nothing is written for a refused page";
}

TEST(AnalyzeCommand, DetailsOfAnotherReportAreRefusedNotMergedByLaunchId) {
  scratch_dir dir;
  const auto raw = copy_case(dir, "vector_add");
  copy_case(dir, "histogram");
  const auto r = run_kopt({"analyze", raw.string(), "--details", (dir.path() / "histogram_details.csv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("is not of the same report as"), std::string::npos) << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("its launch 0 is zero_kernel(int *, int), there vector_add_kernel"),
            std::string::npos)
      << r.stderr_text;
}

TEST(AnalyzeCommand, ReportWithoutNcuSaysSo) {
  scratch_dir dir;
  const auto report = dir.write("x.ncu-rep", "not really a report");
  const auto r = run_kopt({"analyze", report.string(), "--ncu-bin", (dir.path() / "no-ncu").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: ncu not found", 0), 0u) << r.stderr_text;
}

TEST(KbCommand, ListShowMatch) {
  const auto list = run_kopt({"kb", "list", "--backend", "triton", "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.stderr_text;
  const auto doc = nlohmann::json::parse(list.stdout_text);
  EXPECT_EQ(doc["schema"], "kopt.kb_list/v1");
  for (const auto& e : doc["entries"]) EXPECT_EQ(e["backend"], "triton");

  const auto show = run_kopt({"kb", "show", "cutlass-split-k-stream-k"});
  ASSERT_EQ(show.exit_code, 0) << show.stderr_text;
  EXPECT_EQ(first_line(show.stdout_text), "cutlass-split-k-stream-k  (cutlass)");
  EXPECT_NE(show.stdout_text.find("when     waves_per_sm < 1"), std::string::npos) << show.stdout_text;
  EXPECT_NE(show.stdout_text.find("tags     split_k, stream_k"), std::string::npos) << show.stdout_text;

  const auto match = run_kopt({"kb", "match", "--class", "launch", "--backend", "cuda"});
  ASSERT_EQ(match.exit_code, 0) << match.stderr_text;
  EXPECT_EQ(first_line(match.stdout_text).rfind("cuda-more-blocks ", 0), 0u) << match.stdout_text;
}

TEST(KbCommand, UnknownIdClassOrBackend) {
  const auto id = run_kopt({"kb", "show", "cuda-nothing"});
  EXPECT_EQ(id.exit_code, 2);
  EXPECT_EQ(first_line(id.stderr_text), "kopt: error: no knowledge-base entry \"cuda-nothing\": run `kopt kb list` for the ids");
  const auto cls = run_kopt({"kb", "match", "--class", "disk", "--backend", "cuda"});
  EXPECT_EQ(cls.exit_code, 2);
  EXPECT_NE(first_line(cls.stderr_text).find("unknown class \"disk\": use one of launch, occupancy"), std::string::npos);
  const auto backend = run_kopt({"kb", "list", "--backend", "hip"});
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(first_line(backend.stderr_text).find("unknown backend \"hip\""), std::string::npos);
}

}  // namespace
}  // namespace kopt
