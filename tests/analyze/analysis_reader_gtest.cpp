// analysis.json read back: what the writer wrote comes back field for field (real H200 exports
// with source counters), and documents of another schema or missing fields are refused.
#include "analyze/analysis_reader.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "analyze/analysis_json.h"
#include "core/error.h"
#include "core/files.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"

namespace kopt::analyze {
namespace {

std::filesystem::path h200(const std::string& file) {
  return std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200" / file;
}

analysis analyse_case(const std::string& name) {
  analysis a;
  a.report = name + "_raw.csv";
  a.details_file = name + "_details.csv";
  a.details_format = "csv";
  a.backend = "cuda";
  a.backend_how = "test";
  a.source_file = name + "_source.csv";
  const auto raw = profile::parse_raw_csv(read_text_file(h200(name + "_raw.csv")), name);
  const auto details = profile::parse_details(read_text_file(h200(name + "_details.csv")));
  const auto source = profile::parse_source_counters(read_text_file(h200(name + "_source.csv")));
  a.kernels = diagnose(raw, details, "cuda", source);
  return a;
}

TEST(AnalysisReader, WhatTheWriterWroteComesBackWhole) {
  for (const char* name : {"softmax_naive", "softmax_block", "cutlass_gemm", "histogram"}) {
    const analysis written = analyse_case(name);
    ASSERT_FALSE(written.kernels.empty()) << name;
    const json document = to_json(written);
    const analysis read = analysis_from_json(document, name);
    ASSERT_EQ(read.kernels.size(), written.kernels.size()) << name;
    EXPECT_EQ(to_json(read), document) << name;
  }
  // The fields a report shows, checked by name as well as through the round trip.
  const analysis read = analysis_from_json(to_json(analyse_case("softmax_naive")), "softmax_naive");
  const kernel_diagnosis& k = read.kernels.at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::launch);
  EXPECT_FALSE(k.verdict.numbers.empty());
  EXPECT_EQ(k.hottest_source_lines.size(), 5u);
  EXPECT_EQ(k.hottest_source_lines.at(0).line, 35);
  ASSERT_TRUE(k.roof.arithmetic_intensity.has_value());
  EXPECT_GT(*k.roof.arithmetic_intensity, 0);
  ASSERT_TRUE(k.roof.peak_dram_bytes_per_s.has_value());
  EXPECT_GT(*k.roof.peak_dram_bytes_per_s, 1e12);  // an H200: several TB/s
}

// A run folder's analysis.json written before the FP64 peak was kept (v2) still reads, without
// it; a v3 without it is refused, naming the field.
TEST(AnalysisReader, AnAnalysisBeforeTheFp64PeakReadsWithoutIt) {
  json document = to_json(analyse_case("vector_add"));
  for (json& k : document["kernels"]) k["roofline"].erase("peak_fp64_flop_per_s");
  EXPECT_THROW(analysis_from_json(document, "v3 without the field"), error);
  document["schema"] = "kopt.analysis/v2";
  const analysis read = analysis_from_json(document, "v2");
  ASSERT_FALSE(read.kernels.empty());
  EXPECT_FALSE(read.kernels.at(0).roof.peak_fp64_flop_per_s.has_value());
  EXPECT_TRUE(read.kernels.at(0).roof.peak_fp32_flop_per_s.has_value());
}

TEST(AnalysisReader, TheSlowestLaunchIsTheLongestOne) {
  analysis a;
  EXPECT_EQ(slowest_launch(a), nullptr);
  a.kernels.resize(3);
  a.kernels[0].launch.duration_ns = 10;
  a.kernels[1].launch.duration_ns = 30;
  a.kernels[2].launch.duration_ns = 30;  // a tie keeps the first
  EXPECT_EQ(slowest_launch(a), &a.kernels[1]);
}

TEST(AnalysisReader, AnotherSchemaOrAMissingFieldIsRefusedByName) {
  json document = to_json(analyse_case("vector_add"));
  json other = document;
  other["schema"] = "kopt.analysis/v4";
  try {
    analysis_from_json(other, "iter_v1/analysis.json");
    FAIL() << "a newer schema must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("iter_v1/analysis.json is not a kopt analysis"), std::string::npos) << e.headline();
  }
  other = document;
  other["kernels"][0].erase("roofline");
  try {
    analysis_from_json(other, "iter_v1/analysis.json");
    FAIL() << "a missing field must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("lacks a field"), std::string::npos) << e.headline();
  }
  // Version 1 had no hottest source lines.
  other = document;
  other["schema"] = "kopt.analysis/v1";
  other.erase("source_file");
  other["kernels"][0].erase("hottest_source_lines");
  EXPECT_TRUE(analysis_from_json(other, "v1").kernels.at(0).hottest_source_lines.empty());
}

}  // namespace
}  // namespace kopt::analyze
