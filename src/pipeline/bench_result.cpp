#include "pipeline/bench_result.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::pipeline {
namespace {

std::string text_of(const json& document, const char* key) {
  const auto found = document.find(key);
  return found != document.end() && found->is_string() ? found->get<std::string>() : "";
}

json value_of(const json& document, const char* key) {
  const auto found = document.find(key);
  return found != document.end() ? *found : json(nullptr);
}

template <typename T>
std::optional<T> optional_of(const json& document, const char* key) {
  const auto found = document.find(key);
  if (found == document.end() || found->is_null()) return std::nullopt;
  return found->get<T>();
}

correctness_summary correctness_from(const json& c) {
  correctness_summary s;
  if (!c.is_object()) return s;
  s.checked = c.value("checked", false);
  s.passed = optional_of<bool>(c, "passed");
  s.atol = optional_of<double>(c, "atol");
  s.rtol = optional_of<double>(c, "rtol");
  s.output_tensor_count = c.value("output_tensor_count", std::int64_t{0});
  if (c.contains("seeds")) s.seeds = c["seeds"];
  return s;
}

}  // namespace

bench_result bench_result_from_child(const json& r) {
  bench_result b;
  b.kopt_version = text_of(r, "kopt_version");
  b.status = r.value("status", std::string("ok"));
  b.reason = text_of(r, "reason");
  b.detail = text_of(r, "detail");
  b.backend = text_of(r, "backend");
  b.problem_source = text_of(r, "problem_source");
  b.correctness = correctness_from(value_of(r, "correctness"));
  b.protocol = text_of(r, "protocol");
  for (const auto& w : r.value("warnings", json::array())) b.warnings.push_back(w.get<std::string>());
  b.kernel = value_of(r, "kernel");
  b.reference = value_of(r, "reference");
  b.reference_timing_cache = value_of(r, "reference_timing_cache");
  b.speedup_vs_reference = optional_of<double>(r, "speedup_vs_reference");
  b.speedup_vs_reference_ci95 = value_of(r, "speedup_vs_reference_ci95");
  b.kernel_vs_reference = value_of(r, "kernel_vs_reference");
  b.timed_call_checks = value_of(r, "timed_call_checks");
  b.physical_floor = value_of(r, "physical_floor");
  b.libraries_loaded_by_kernel = value_of(r, "libraries_loaded_by_kernel");
  b.sanitizer = value_of(r, "sanitizer");
  b.triton = value_of(r, "triton");
  b.reference_runner = value_of(r, "reference_runner");
  b.python_runner = value_of(r, "python_runner");
  b.buffer_bytes = optional_of<std::int64_t>(r, "buffer_bytes").value_or(0);
  b.phases_s = value_of(r, "phases_s");
  b.sandbox = value_of(r, "sandbox");
  b.kernel_file = text_of(r, "kernel_file");
  b.reference_file = text_of(r, "reference_file");
  b.gpu_name = text_of(r, "gpu_name");
  b.gpu_uuid = text_of(r, "gpu_uuid");
  b.arch = text_of(r, "arch");
  b.driver_version = text_of(r, "driver_version");
  b.driver_cuda_version = text_of(r, "driver_cuda_version");
  b.nvcc_command = value_of(r, "nvcc_command");
  b.nvcc_version = text_of(r, "nvcc_version");
  b.seed = optional_of<std::uint64_t>(r, "seed").value_or(0);
  b.signature = text_of(r, "signature");
  b.dims = value_of(r, "dims");
  return b;
}

json to_json(const bench_result& b) {
  const correctness_summary& c = b.correctness;
  // nlohmann's json keeps keys sorted; "schema" is what a reader checks first either way.
  return json{{"schema", bench_result_schema},
              {"kopt_version", b.kopt_version},
              {"status", b.status},
              {"reason", b.reason},
              {"detail", b.detail},
              {"backend", b.backend},
              {"problem_source", b.problem_source},
              {"correctness", json{{"checked", c.checked},
                                   {"passed", json_or_null(c.passed)},
                                   {"atol", json_or_null(c.atol)},
                                   {"rtol", json_or_null(c.rtol)},
                                   {"output_tensor_count", c.output_tensor_count},
                                   {"seeds", c.seeds}}},
              {"protocol", b.protocol},
              {"warnings", b.warnings},
              {"kernel", b.kernel},
              {"reference", b.reference},
              {"reference_timing_cache", b.reference_timing_cache},
              {"speedup_vs_reference", json_or_null(b.speedup_vs_reference)},
              {"speedup_vs_reference_ci95", b.speedup_vs_reference_ci95},
              {"kernel_vs_reference", b.kernel_vs_reference},
              {"timed_call_checks", b.timed_call_checks},
              {"physical_floor", b.physical_floor},
              {"libraries_loaded_by_kernel", b.libraries_loaded_by_kernel},
              {"sanitizer", b.sanitizer},
              {"triton", b.triton},
              {"reference_runner", b.reference_runner},
              {"python_runner", b.python_runner},
              {"buffer_bytes", b.buffer_bytes},
              {"phases_s", b.phases_s},
              {"sandbox", b.sandbox},
              {"kernel_file", b.kernel_file},
              {"reference_file", b.reference_file},
              {"gpu_name", b.gpu_name},
              {"gpu_uuid", b.gpu_uuid},
              {"arch", b.arch},
              {"driver_version", b.driver_version},
              {"driver_cuda_version", b.driver_cuda_version},
              {"nvcc_command", b.nvcc_command},
              {"nvcc_version", b.nvcc_version},
              {"seed", b.seed},
              {"signature", b.signature},
              {"dims", b.dims}};
}

bench_result read_bench_result(const json& document, const std::string& where) {
  const std::string schema = document.is_object() ? text_of(document, "schema") : "";
  if (schema != bench_result_schema) {
    throw error(fmt::format("{}: not a kopt bench result of this version (schema \"{}\", expected \"{}\"); run kopt "
                            "bench again with this kopt",
                            where, schema, bench_result_schema));
  }
  if (!document.contains("status") || !document.contains("correctness") || !document["correctness"].is_object()) {
    throw error(fmt::format("{}: a bench result without status or correctness; the file is damaged, run kopt bench "
                            "again",
                            where));
  }
  return bench_result_from_child(document);
}

}  // namespace kopt::pipeline
