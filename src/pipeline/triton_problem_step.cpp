#include "pipeline/triton_problem_step.h"

#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "harness/kernel_protocol.h"
#include "kernel/element_type.h"
#include "pipeline/child_jobs.h"
#include "pipeline/child_verdict.h"
#include "pipeline/triton_distribution.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

std::string file_digest(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(fmt::format("the Triton problem step left no {}", path.string()));
  hasher digest;
  std::vector<char> block(std::size_t{4} << 20);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    digest.update(std::string_view(block.data(), static_cast<std::size_t>(in.gcount())));
  }
  return digest.hex_digest();
}

harness::triton_problem problem_of(const harness::problem_answer& answer, const fs::path& dir,
                                   const std::vector<std::uint64_t>& seeds) try {
  harness::triton_problem problem;
  problem.dir = dir;
  problem.owner = answer.owner;
  problem.module = answer.module;
  problem.seeds = seeds;
  problem.order = answer.order;
  problem.scalars = answer.scalars;
  if (!answer.tensors.is_array()) throw error("the Triton problem step's tensors are not a list (a kopt bug: report it)");
  for (const auto& t : answer.tensors) {
    harness::triton_tensor tensor = harness::triton_tensor_layout_from_json(t);
    const auto element = kernel::element_type_by_name(tensor.dtype);
    if (!element) throw error(fmt::format("setup() returned {} as {}, which kopt cannot compare", tensor.name, tensor.dtype));
    if (tensor.role != kernel::buffer_role::out) tensor.values = fitted_distribution(*element, t.at("values"));
    for (const std::uint64_t seed : seeds) {
      const std::string file = harness::triton_input_file(seed, tensor.name);
      problem.digests[file] = file_digest(dir / file);
    }
    problem.tensors.push_back(std::move(tensor));
  }
  return problem;
} catch (const json::exception& e) {
  throw error(fmt::format("the Triton problem step's answer is malformed (a kopt bug: report it): {}", e.what()));
}

}  // namespace

std::optional<std::string> seed_blindness(const harness::triton_problem& problem) {
  if (problem.seeds.size() < 2 || problem.seeds[0] == problem.seeds[1]) return std::nullopt;
  bool any_input = false;
  for (const auto& t : problem.tensors) {
    if (t.role == kernel::buffer_role::out) continue;
    any_input = true;
    const auto digest = [&](std::uint64_t seed) { return problem.digests.at(harness::triton_input_file(seed, t.name)); };
    if (digest(problem.seeds[0]) != digest(problem.seeds[1])) return std::nullopt;
  }
  if (!any_input) return std::nullopt;
  return fmt::format("seed blindness: setup() in {} returned the same inputs for seeds {} and {}: draw them from the "
                     "seed it is given (setup(..., seed=0) and a torch.Generator seeded with it)",
                     problem.module, problem.seeds[0], problem.seeds[1]);
}

std::shared_ptr<const private_folder> new_problem_folder() {
  return std::make_shared<const private_folder>("kopt-problem", "the Triton problem's tensors");
}

triton_problem_run run_triton_problem_step(measuring_worker& worker, const harness::bench_job& job,
                                           const env::gpu_device& device, int timeout_s) {
  triton_problem_run run;
  const std::vector<std::uint64_t> seeds = kernel_seeds(job);
  const std::string owner = job.problem_owner.value_or("");
  // Kept warm from the last command: its process writes only in its own folder.
  run.folder = worker.warm_problem_folder(problem_job(job, "", seeds, owner), device);
  if (!run.folder) run.folder = new_problem_folder();
  const harness::bench_job step = problem_job(job, run.folder->path().string(), seeds, owner);
  const wrapped_child_run child = run_child(worker, step, device, timeout_s);
  if (!child.process.succeeded() || !child.result || !child.process.left_running.empty()) {
    const harness::child_report failed = child_verdict(child, timeout_s, measuring_side::problem);
    throw error(fmt::format("setup() could not make the problem: {}", failed.reason));
  }
  const auto answer = read_document<harness::problem_answer>(*child.result, "the Triton problem step's answer",
                                                             "a kopt bug: report it with the command line");
  if (answer.status != harness::run_status::ok) {
    throw error(fmt::format("setup() could not make the problem: {}", answer.reason.empty() ? "it failed" : answer.reason));
  }
  run.problem = problem_of(answer, run.folder->path(), seeds);
  if (auto blind = seed_blindness(run.problem)) {
    if (run.problem.owner != "kernel") throw error(*blind);  // the reference's setup(): the user's to fix
    run.failure = std::move(blind);
  }
  return run;
}

}  // namespace kopt::pipeline
