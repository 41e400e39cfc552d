// The bench result document: one shape for CUDA and Triton, written and read back with its
// schema checked.
#include "pipeline/bench_result.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_io.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {

std::set<std::string> keys_of(const json& document) {
  std::set<std::string> keys;
  for (const auto& [key, value] : document.items()) keys.insert(key);
  return keys;
}

// A judged CUDA result: the kernel's child as recorded, the reference's timing and the parent's
// verdict beside it.
json cuda_child() {
  json result = read_json_file(testing::source_dir() / "tests/data/pipeline/child_result_ok.json");
  result.erase("evidence");
  result["reference"] =
      read_json_file(testing::source_dir() / "tests/data/pipeline/reference_child_result_ok.json")["reference"];
  result["correctness"] = json{{"checked", true}, {"passed", true}, {"atol", 1e-5}, {"rtol", 1e-5},
                               {"output_tensor_count", 1}, {"seeds", json::array()}};
  return result;
}

// What the Python runner writes for a Triton kernel: other fields, some of the same.
json triton_child() {
  return json::parse(R"json({"status": "ok", "reason": "", "backend": "triton", "device": 0,
    "correctness": {"checked": true, "passed": true, "seeds": []},
    "triton": {"version": "3.6.0", "interpreted": false, "kernels": []},
    "signature": "run_kernel(x, y, n)", "dims": {"n": 1024}, "buffer_bytes": 8192,
    "python_runner": {"torch": {"version": "2.11.0"}, "overhead_s": {"startup_s": 3.2, "total_s": 15.0}},
    "warnings": ["side stream: ..."]})json");
}

TEST(BenchResult, CudaAndTritonDocumentsHaveTheSameShape) {
  const json cuda = to_json(bench_result_from_child(cuda_child()));
  const json triton = to_json(bench_result_from_child(triton_child()));
  EXPECT_EQ(keys_of(cuda), keys_of(triton));
  EXPECT_EQ(keys_of(cuda["correctness"]), keys_of(triton["correctness"]));
  EXPECT_EQ(cuda["schema"], "kopt.benchmark_result/v1");
  // What does not apply is null, not missing.
  EXPECT_TRUE(cuda["triton"].is_null());
  EXPECT_TRUE(triton["kernel"].is_null());
  EXPECT_TRUE(triton["timed_call_checks"].is_null());
  EXPECT_EQ(triton["buffer_bytes"], 8192);
  EXPECT_EQ(triton["warnings"][0], "side stream: ...");
}

TEST(BenchResult, ADocumentReadsBackToTheSameDocument) {
  const json written = to_json(bench_result_from_child(cuda_child()));
  const bench_result read = read_bench_result(written, "result.json");
  EXPECT_EQ(to_json(read), written);
  EXPECT_TRUE(read.ok());
  EXPECT_EQ(read.correctness.passed, std::optional<bool>(true));
  EXPECT_DOUBLE_EQ(read.kernel["median_ms"].get<double>(), 0.06122);
  EXPECT_EQ(read.timed_call_checks["checked"], 10);
}

TEST(BenchResult, AnotherSchemaIsRefusedWithWhatToDo) {
  json other = to_json(bench_result_from_child(cuda_child()));
  other["schema"] = "kopt.benchmark_result/v2";
  try {
    read_bench_result(other, "old.json");
    FAIL() << "a v2 document must be refused";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "old.json: not a kopt bench result of this version (schema \"kopt.benchmark_result/v2\", "
                            "expected \"kopt.benchmark_result/v1\"); run kopt bench again with this kopt");
  }
  EXPECT_THROW(read_bench_result(json::array(), "list.json"), error);
  json damaged = to_json(bench_result_from_child(cuda_child()));
  damaged.erase("correctness");
  EXPECT_THROW(read_bench_result(damaged, "damaged.json"), error);
}

TEST(BenchResult, AFailedChildKeepsItsReasonAndDetail) {
  const bench_result failed = bench_result_from_child(json{
      {"status", "failed"}, {"reason", "timed call 22 (checked at random): no write: ..."}, {"detail", "Traceback ..."},
      {"correctness", json{{"checked", true}, {"passed", false}}}});
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.reason, "timed call 22 (checked at random): no write: ...");
  EXPECT_EQ(failed.detail, "Traceback ...");
  EXPECT_EQ(failed.correctness.passed, std::optional<bool>(false));
  EXPECT_TRUE(to_json(failed)["speedup_vs_reference"].is_null());
}

}  // namespace
}  // namespace kopt::pipeline
