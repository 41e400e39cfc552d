// The bench result document: one shape for CUDA and Triton, written by its description and read
// back by its checking reader, which refuses another schema, a missing field or a wrong type with
// the field named and what to do.
#include "pipeline/bench_result.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "pipeline/bench_verdict.h"
#include "support/timings.h"

namespace kopt::pipeline {
namespace {

std::set<std::string> keys_of(const json& document) {
  std::set<std::string> keys;
  for (const auto& [key, value] : document.items()) keys.insert(key);
  return keys;
}

// A judged CUDA result: both sides timed, the verdict's conclusions beside them.
bench_result cuda_result() {
  bench_result r;
  r.backend = "cuda";
  r.kernel = testing::timing_around(0.06122, 82);
  r.reference = testing::timing_around(0.0613, 80);
  r.timed_call_checks = harness::timed_call_summary{92, 10, {17}, 10, 0, "1 in 32"};
  r.correctness = correctness_summary{true, true, 1e-5, 1e-5, 1, {seed_check{0, "before timing", true}}};
  r.nvcc_command = std::vector<std::string>{"nvcc", "-O3"};
  add_timing_conclusions(r);
  return r;
}

// What a Triton kernel's run gives: the runner's facts, no nvcc.
bench_result triton_result() {
  bench_result r;
  r.backend = "triton";
  r.correctness.checked = true;
  r.correctness.passed = true;
  r.triton = json{{"version", "3.6.0"}, {"interpreted", false}, {"kernels", json::array()}};
  r.signature = "run_kernel(x, y, n)";
  r.dims = json{{"n", 1024}};
  r.buffer_bytes = 8192;
  r.python_runner = harness::runner_facts{};
  r.warnings = {"side stream: ..."};
  return r;
}

TEST(BenchResult, CudaAndTritonDocumentsHaveTheSameShape) {
  const json cuda = to_document(cuda_result());
  const json triton = to_document(triton_result());
  EXPECT_EQ(keys_of(cuda), keys_of(triton));
  EXPECT_EQ(keys_of(cuda["correctness"]), keys_of(triton["correctness"]));
  EXPECT_EQ(cuda["schema"], "kopt.benchmark_result/v4");
  // What does not apply is null, not missing.
  EXPECT_TRUE(cuda["triton"].is_null());
  EXPECT_TRUE(triton["kernel"].is_null());
  EXPECT_TRUE(triton["nvcc_command"].is_null());
  EXPECT_TRUE(triton["timed_call_checks"].is_null());
  EXPECT_EQ(triton["buffer_bytes"], 8192);
  EXPECT_EQ(triton["warnings"][0], "side stream: ...");
  // The Python toolkit's fields, where its readers look for them.
  EXPECT_EQ(cuda["status"], "ok");
  EXPECT_TRUE(cuda["kernel"]["median_ms"].is_number());
  EXPECT_TRUE(cuda["speedup_vs_reference"].is_number());
  EXPECT_EQ(cuda["correctness"]["atol"], 1e-5);
}

TEST(BenchResult, ADocumentReadsBackToTheSameDocument) {
  const json written = to_document(cuda_result());
  const bench_result read = read_bench_result(written, "result.json");
  EXPECT_EQ(to_document(read), written);
  EXPECT_TRUE(read.ok());
  EXPECT_EQ(read.correctness.passed, std::optional<bool>(true));
  ASSERT_TRUE(read.kernel);
  EXPECT_DOUBLE_EQ(read.kernel->median_ms, cuda_result().kernel->median_ms);
  ASSERT_TRUE(read.timed_call_checks);
  EXPECT_EQ(read.timed_call_checks->checked, 10U);
}

TEST(BenchResult, AnotherSchemaOrADamagedDocumentIsRefusedWithTheFieldAndWhatToDo) {
  json other = to_document(cuda_result());
  other["schema"] = "kopt.benchmark_result/v1";
  try {
    (void)read_bench_result(other, "old.json");
    FAIL() << "a v1 document must be refused";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "old.json: field schema: is \"kopt.benchmark_result/v1\", expected "
                            "\"kopt.benchmark_result/v4\" (a document of another kopt version, or not kopt's); it is "
                            "damaged or from another kopt version: run kopt bench again");
  }
  EXPECT_THROW((void)read_bench_result(json::array(), "list.json"), error);
  json damaged = to_document(cuda_result());
  damaged.erase("correctness");
  try {
    (void)read_bench_result(damaged, "damaged.json");
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.headline().rfind("damaged.json: field correctness: is missing", 0), 0U) << e.headline();
  }
  json wrong = to_document(cuda_result());
  wrong["kernel"]["samples_ms"][3] = "0.06";
  try {
    (void)read_bench_result(wrong, "wrong.json");
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.headline().rfind("wrong.json: field kernel.samples_ms[3]: must be a number", 0), 0U) << e.headline();
  }
}

TEST(BenchResult, AFailedResultKeepsItsReasonAndDetail) {
  bench_result failed;
  failed.status = harness::run_status::failed;
  failed.reason = "timed call 22 (checked at random): no write: ...";
  failed.detail = "Traceback ...";
  failed.correctness = correctness_summary{true, false};
  const bench_result read = read_bench_result(to_document(failed), "failed.json");
  EXPECT_FALSE(read.ok());
  EXPECT_EQ(read.reason, failed.reason);
  EXPECT_EQ(read.detail, "Traceback ...");
  EXPECT_EQ(read.correctness.passed, std::optional<bool>(false));
  EXPECT_TRUE(to_document(read)["speedup_vs_reference"].is_null());
  EXPECT_EQ(to_document(read)["status"], "failed");
}

}  // namespace
}  // namespace kopt::pipeline
