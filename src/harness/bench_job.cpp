#include "harness/bench_job.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::harness {

bool has_python_reference(const bench_job& job) {
  return job.reference_source.size() > 3 && job.reference_source.ends_with(".py");
}

bool has_native_reference(const bench_job& job) {
  return !job.reference_source.empty() && !has_python_reference(job);
}

bool is_reference_role(const bench_job& job) { return job.role == "reference"; }
bool is_problem_role(const bench_job& job) { return job.role == "problem"; }

json to_json(const bench_job& job) {
  json dims = json::array();
  for (const auto& d : job.dims) dims.push_back(json{{"name", d.name}, {"value", d.value}, {"via_dim_flag", d.via_dim_flag}});
  return with_schema("harness_job", 4,
                     json{{"role", job.role},
                          {"evidence_dir", job.evidence_dir},
                          {"evidence", to_json(job.evidence)},
                          {"triton_problem", job.triton_problem},
                          {"problem_owner", job.problem_owner},
                          {"kernel_source", job.kernel_source},
                          {"kernel_library", job.kernel_library},
                          {"reference_source", job.reference_source},
                          {"reference_library", job.reference_library},
                          {"python", job.python},
                          {"python_runner", job.python_runner},
                          {"harness_abi_library", job.harness_abi_library},
                          {"backend", job.backend},
                          {"dims", dims},
                          {"ptr_size", job.ptr_size ? json(*job.ptr_size) : json(nullptr)},
                          {"own_flag_names", job.own_flag_names},
                          {"defines", job.defines},
                          {"seed", job.seed},
                          {"validation_seeds", job.validation_seeds},
                          {"hot", job.hot},
                          {"warmup", job.warmup},
                          {"repeat", job.repeat},
                          {"min_seconds", job.min_seconds},
                          {"max_seconds", job.max_seconds},
                          {"target_relative_half_width", job.target_relative_half_width},
                          {"atol", job.atol ? json(*job.atol) : json(nullptr)},
                          {"rtol", job.rtol ? json(*job.rtol) : json(nullptr)},
                          {"profile_mode", job.profile_mode},
                          {"profile_calls", job.profile_calls},
                          {"validation_only", job.validation_only},
                          {"timing_blocks", job.timing_blocks},
                          {"turn_peers", job.turn_peers},
                          {"idle_peers", job.idle_peers},
                          {"host_only", job.host_only}});
}

bench_job bench_job_from_json(const json& d) {
  constexpr const char* expected = "kopt.harness_job/v4";
  if (!d.is_object() || d.value("schema", "") != expected) {
    throw error(fmt::format("this measuring job is not a {} document (schema {}): it was written by another kopt "
                            "version",
                            expected, d.is_object() && d.contains("schema") ? d["schema"].dump() : "missing"));
  }
  bench_job job;
  job.role = d.at("role").get<std::string>();
  if (job.role != "kernel" && job.role != "reference" && job.role != "problem") {
    throw error("a measuring job's role is 'kernel', 'reference' or 'problem', not '" + job.role + "'");
  }
  job.evidence_dir = d.at("evidence_dir").get<std::string>();
  job.evidence = evidence_keys_from_json(d.at("evidence"));
  job.triton_problem = d.at("triton_problem");
  job.problem_owner = d.at("problem_owner").get<std::string>();
  job.kernel_source = d.at("kernel_source").get<std::string>();
  job.kernel_library = d.at("kernel_library").get<std::string>();
  job.reference_source = d.at("reference_source").get<std::string>();
  job.reference_library = d.at("reference_library").get<std::string>();
  job.python = d.at("python").get<std::string>();
  job.python_runner = d.at("python_runner").get<std::string>();
  job.harness_abi_library = d.at("harness_abi_library").get<std::string>();
  job.backend = d.at("backend").get<std::string>();
  for (const auto& dim : d.at("dims")) {
    job.dims.push_back({dim.at("name").get<std::string>(), dim.at("value").get<std::string>(),
                        dim.at("via_dim_flag").get<bool>()});
  }
  if (!d.at("ptr_size").is_null()) job.ptr_size = d.at("ptr_size").get<std::int64_t>();
  job.own_flag_names = d.at("own_flag_names").get<std::vector<std::string>>();
  job.defines = d.at("defines").get<std::vector<std::string>>();
  job.seed = d.at("seed").get<std::uint64_t>();
  job.validation_seeds = d.at("validation_seeds").get<int>();
  job.hot = d.at("hot").get<bool>();
  job.warmup = d.at("warmup").get<int>();
  job.repeat = d.at("repeat").get<int>();
  job.min_seconds = d.at("min_seconds").get<double>();
  job.max_seconds = d.at("max_seconds").get<double>();
  job.target_relative_half_width = d.at("target_relative_half_width").get<double>();
  if (!d.at("atol").is_null()) job.atol = d.at("atol").get<double>();
  if (!d.at("rtol").is_null()) job.rtol = d.at("rtol").get<double>();
  job.profile_mode = d.at("profile_mode").get<bool>();
  job.profile_calls = d.at("profile_calls").get<int>();
  job.validation_only = d.at("validation_only").get<bool>();
  job.timing_blocks = d.at("timing_blocks").get<bool>();
  job.turn_peers = d.at("turn_peers").get<int>();
  job.idle_peers = d.at("idle_peers").get<int>();
  job.host_only = d.at("host_only").get<bool>();
  return job;
}

}  // namespace kopt::harness
