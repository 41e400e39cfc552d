#include "pipeline/child_jobs.h"

#include <filesystem>

#include "harness/kernel_protocol.h"

namespace kopt::pipeline {
namespace {

harness::bench_job of_kind(const harness::bench_job& settings, harness::job_kind kind) {
  harness::bench_job job = settings;
  job.kind = kind;
  job.validation.reset();
  job.problem_owner.reset();
  job.profile_calls.reset();
  job.turn_peers.reset();
  job.idle_peers.reset();
  return job;
}

}  // namespace

harness::bench_job validation_only(harness::bench_job settings, int seeds) {
  settings.validation = harness::job_validation{"", {}, seeds, false};
  return settings;
}

harness::bench_job profile_settings(harness::bench_job settings, int calls) {
  settings.kind = harness::job_kind::profile;
  settings.profile_calls = calls;
  return settings;
}

bool profiles(const harness::bench_job& settings) {
  return settings.kind == harness::job_kind::profile;
}

bool times_the_kernel(const harness::bench_job& settings) {
  return !profiles(settings) && (!settings.validation || settings.validation->timed);
}

harness::bench_job kernel_job(const harness::bench_job& settings, const std::string& evidence_dir) {
  const harness::job_validation asked = settings.validation.value_or(harness::job_validation{});
  harness::bench_job job = of_kind(settings, harness::job_kind::kernel);
  job.reference_library.clear();  // the reference is never loaded beside the kernel
  job.validation = harness::job_validation{evidence_dir, {}, asked.seeds, asked.timed};
  job.idle_peers = 0;  // the worker counts them when it runs the job
  return job;
}

harness::bench_job reference_job(const harness::bench_job& settings,
                                 const std::vector<harness::evidence_key>& keys,
                                 const std::string& evidence_dir, bool timed) {
  harness::bench_job job = of_kind(settings, harness::job_kind::reference);
  job.kernel_library.clear();  // nor the kernel beside the reference
  job.validation = harness::job_validation{evidence_dir, keys, 2, timed};
  return job;
}

std::vector<std::uint64_t> kernel_seeds(const harness::bench_job& settings) {
  return harness::validation_seeds_of(kernel_job(settings, ""));
}

harness::bench_job problem_job(const harness::bench_job& settings, const std::string& evidence_dir,
                               const std::vector<std::uint64_t>& seeds, const std::string& owner) {
  harness::bench_job job = of_kind(settings, harness::job_kind::problem);
  harness::job_validation validation{evidence_dir, {}, 2, false};
  for (const std::uint64_t seed : seeds)
    validation.evidence.push_back({harness::evidence_kind::seed, seed, ""});
  job.validation = std::move(validation);
  job.problem_owner = owner;
  return job;
}

harness::bench_job profile_job(const harness::bench_job& settings) {
  harness::bench_job job = of_kind(settings, harness::job_kind::profile);
  job.reference_library.clear();
  job.profile_calls = settings.profile_calls.value_or(1);
  return job;
}

harness::bench_job blocks_job(const harness::bench_job& settings, const std::filesystem::path& source,
                              const std::filesystem::path& library, int peers) {
  harness::bench_job job = of_kind(settings, harness::job_kind::blocks);
  job.kernel_source = std::filesystem::absolute(source).string();
  // A Triton version has no library: its runner compiles it when run_kernel() first launches.
  job.kernel_library = library.empty() ? "" : std::filesystem::absolute(library).string();
  job.reference_source.clear();
  job.reference_library.clear();
  job.turn_peers = peers;
  return job;
}

}  // namespace kopt::pipeline
