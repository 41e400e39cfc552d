#include "pipeline/comparison_pipeline.h"

#include <fmt/format.h>

#include "core/error.h"
#include "env/gpu_identity.h"
#include "kernel/backend.h"
#include "pipeline/child_jobs.h"
#include "pipeline/measuring_child.h"
#include "pipeline/problem_fingerprint.h"

namespace kopt::pipeline {

namespace {

// The problem step for the candidate, as its bench ran it: the job gets the problem, and the
// returned folder holds its tensors until the comparison ends.
std::shared_ptr<const private_folder> make_triton_problem(const comparison_request& request,
                                                          harness::bench_job& job, measuring_worker& worker) {
  bench_target target = request.target;
  target.kernel = request.candidate.source;
  prepared_bench prepared = prepare_bench(target, job, worker);
  if (prepared.failed_problem) {
    throw error(fmt::format("{}: {}", request.candidate.source.string(), *prepared.failed_problem));
  }
  return prepared.triton_problem_folder;
}

}  // namespace

turns_outcome run_comparison(const comparison_request& request, measuring_worker& worker) {
  harness::bench_job base = request.job;
  base.dims = request.target.dims;
  base.ptr_size = request.target.ptr_size;
  base.defines = request.target.defines;
  std::shared_ptr<const private_folder> problem_folder;
  if (is_triton_backend(base.backend) && base.triton_problem.is_null()) {
    problem_folder = make_triton_problem(request, base, worker);
  }
  const env::gpu_probe_result gpus = worker.probe_gpus();
  const env::gpu_device* device = gpus.device(request.target.gpu);
  if (device == nullptr) {
    throw error(fmt::format(
        "no GPU to compare on ({}): comparing versions needs an NVIDIA GPU",
        gpus.has_gpu() ? fmt::format("--gpu {} is not visible", request.target.gpu) : gpus.driver_problem));
  }
  const std::unique_ptr<block_timing> session =
      worker.open_block_timing({blocks_job(base, request.candidate.source, request.candidate.library, 1),
                                blocks_job(base, request.incumbent.source, request.incumbent.library, 1)},
                               *device, request.block_timeout_s);  // each beside the other's process
  const env::gpu_state before = env::gpu_state_now(*device);
  turns_outcome outcome = compare_in_turns(*session, request.expected_ms, request.settings);
  outcome.gpu_at_start = before;
  outcome.gpu_at_end = env::gpu_state_now(*device);
  const std::vector<std::string> late = session->close();
  for (std::size_t i = 0; i < late.size(); ++i) note_failure(outcome, static_cast<int>(i), late[i]);
  return outcome;
}

file_comparison compare_files(const file_comparison_request& request, measuring_worker& worker) {
  file_comparison out;
  comparison_request turns;
  turns.target = request.target;
  turns.job = request.job;
  turns.settings = request.settings;
  prepared_bench built[2];
  harness::bench_job prepared[2] = {request.job, request.job};
  const std::filesystem::path files[2] = {request.candidate, request.baseline};
  for (int i = 0; i < 2; ++i) {
    bench_target target = request.target;
    target.kernel = files[i];
    // A CUDA version is built; a Triton one has its problem made (its setup() or its reference's).
    if (request.progress) {
      request.progress(fmt::format("{} {}", files[i].extension() == ".py" ? "preparing" : "building",
                                   files[i].filename().string()));
    }
    built[i] = prepare_bench(target, prepared[i], worker);
    if (built[i].failed_build) {
      out.failed_build = built[i].failed_build;
      return out;
    }
    if (built[i].failed_problem)
      throw error(fmt::format("{}: {}", files[i].string(), *built[i].failed_problem));
  }
  if (built[0].plan.backend != built[1].plan.backend) {
    throw error(fmt::format("{} and {} are kernels of different backends: a comparison needs one",
                            request.baseline.string(), request.candidate.string()));
  }
  // Both are timed on the candidate's problem (its tensors stay in built[0]'s folder until the
  // comparison ends); the check below holds the baseline's to be the same.
  turns.job = prepared[0];
  if (problem_sha256(built[0].plan) != problem_sha256(built[1].plan)) {
    throw error(
        fmt::format("{} and {} declare different problems (buffers, sizes, roles or value ranges; kopt "
                    "inspect shows them): a comparison needs the same one",
                    request.baseline.string(), request.candidate.string()));
  }
  turns.candidate = {built[0].kernel_file, built[0].kernel_build.library};
  turns.incumbent = {built[1].kernel_file, built[1].kernel_build.library};
  out.device = built[0].device;
  if (request.progress) {
    request.progress(fmt::format("timing both in turns on {} (at most {:.0f} s)", out.device.name,
                                 request.settings.max_seconds));
  }
  out.turns = run_comparison(turns, worker);
  return out;
}

}  // namespace kopt::pipeline
