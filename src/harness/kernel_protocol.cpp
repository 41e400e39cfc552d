#include "harness/kernel_protocol.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/buffer_previews.h"
#include "harness/copy_bandwidth.h"
#include "harness/device_buffers.h"
#include "harness/evidence_files.h"
#include "harness/gpu_sharing.h"
#include "harness/integrity_flags.h"
#include "harness/kernel_failure.h"
#include "harness/kernel_sources.h"
#include "harness/loaded_libraries.h"
#include "harness/output_checks.h"
#include "harness/outputs_settled.h"
#include "harness/physical_floor.h"
#include "harness/sampling.h"
#include "harness/timed_call_checks.h"
#include "harness/timing_instruments.h"

namespace kopt::harness {
namespace {
using kernel::buffer_role;

// The validation seed that follows timing: fresh inputs once more.
constexpr std::uint64_t after_timing_seed_offset = 1000003;

void record_failure(child_report& report, const kernel_failure& failure) {
  report.status = failure.status;
  report.reason = failure.reason;
  report.detail = failure.detail;
}

class protocol_run {
 public:
  protocol_run(const protocol_setting& setting, child_report& result)
      : m_setting(setting),
        m_job(setting.job),
        m_plan(setting.plan),
        m_buffers(*setting.version.buffers),
        m_pristine(m_buffers.memory(), m_plan.buffers),
        m_result(result),
        m_keep(!evidence_dir_of(setting.job).empty()) {}

  void validate(std::uint64_t seed, const char* when) {
    const evidence_key key{evidence_kind::seed, seed, when};
    m_setting.seeds.prepare(seed, m_buffers);
    copy_inputs(m_plan, m_buffers, m_pristine);
    m_buffers.memory().synchronize("making a validation seed's inputs");
    run_once(m_setting.version, "kernel");
    set_outputs_aside(m_plan, m_buffers, m_pristine);  // the pristine set's outputs are free
    if (const auto found = check_guards_and_inputs(m_plan, m_buffers, m_pristine)) throw kernel_failure{run_status::failed, *found};
    keep(key, m_buffers);
    if (const auto moved = outputs_changed_since_set_aside(m_plan, m_buffers, m_pristine)) {
      throw kernel_failure{run_status::failed, fmt::format("work in flight: validation seed {} ({}): {}", seed, when, *moved)};
    }
    // Nothing judges the outputs without a reference: the user gets a look at them instead.
    if (!m_keep && !m_result.previews) m_result.previews = preview_buffers(m_plan, m_buffers);
  }

  void time() {
    const gpu_context& gpu = *m_setting.gpu;
    const cuda::driver_api& api = *gpu.api;
    // Before the instruments start: no record of these copies reaches the judge.
    const std::optional<double> copy_bandwidth = m_job.sampling.hot ? std::nullopt : measured_copy_bandwidth(gpu);
    timing_instruments instruments(gpu, m_job.sampling.hot);
    timed_call_checks::evidence_sink sink;
    if (m_keep) {
      sink = [&](std::uint64_t call, const device_buffers& kernel) {
        keep(evidence_key{evidence_kind::call, call, "timed"}, kernel);
      };
    }
    // The checked calls make their inputs again in the pristine set, beside the kernel's.
    timed_call_checks checks(api, m_plan, m_buffers, m_pristine, *m_setting.generator, m_job.seed, sink);
    m_result.protocol = protocol_description(m_job.sampling.hot, static_cast<std::size_t>(gpu.l2_bytes));
    if (const auto warning =
            other_processes_warning(gpu.uuid, static_cast<std::size_t>(m_job.idle_peers.value_or(0)))) {
      m_result.warnings.push_back(*warning);
    }

    const sampling_options judged = judged_sampling(m_job, m_plan);
    std::uint64_t last_call = 0;
    kernel_tally kernels;  // whose kernels each call ran: kernel_sources.h
    sampling_hooks hooks;
    hooks.before_each = [&](std::uint64_t call) { checks.prepare_call(m_buffers, call); };
    hooks.after_each = [&](std::uint64_t call, const call_sample& sample) {
      last_call = call;
      kernels.add(sample.kernel_names);
      checks.after_call(call);
    };
    hooks.wants_more = [&] { return checks.wants_more(); };
    version_under_test& version = *m_setting.version.call;
    try {
      m_result.kernel = sample_gpu_time(api, *instruments.recorder, instruments.attribution,
                                           instruments.flusher.get(), [&] { version.invoke(); }, judged, gpu.uuid, hooks);
    } catch (const error& e) {
      throw kernel_failure{run_status::crashed, fmt::format("the kernel failed while being timed: {}", e.headline())};
    }
    m_result.timed_kernel_sets = kernels.records();
    checks.finish(last_call);
    m_result.timed_call_checks = checks.summary();
    // After the timed calls too: a version that loads a library only once it believes it is
    // timed is named as well.
    add_integrity_flags(m_result, compute_libraries_loaded_since(m_setting.library_baseline));
    if (!m_job.sampling.hot) {
      const double peak = device_peak_dram_bandwidth(gpu);
      const std::uint64_t must_cross = floor_bytes(m_plan, static_cast<std::uint64_t>(gpu.l2_bytes));
      m_result.physical_floor = physical_floor_record{must_cross, peak, copy_bandwidth};
      if (const auto warning = floor_warning(m_result.kernel->headline_ms(), must_cross, peak)) {
        m_result.warnings.push_back(*warning);
      }
    }
  }

  const std::vector<evidence_key>& evidence() const { return m_evidence; }

 private:
  // Kept only when there is a reference to compare with: the parent made the folder for it.
  void keep(const evidence_key& key, const device_buffers& buffers) {
    if (m_keep) write_evidence(evidence_dir_of(m_job), key, m_plan, buffers);
    m_evidence.push_back(key);
  }

  const protocol_setting& m_setting;
  const bench_job& m_job;
  const kernel::kernel_plan& m_plan;
  device_buffers& m_buffers;
  device_buffers m_pristine;  // what the kernel was given, to check that its inputs are unchanged
  child_report& m_result;
  bool m_keep;
  std::vector<evidence_key> m_evidence;
};

}  // namespace

std::vector<std::uint64_t> validation_seeds_of(const bench_job& job) {
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < validation_of(job).seeds; ++i)
    seeds.push_back(job.seed + static_cast<std::uint64_t>(i));
  seeds.push_back(job.seed + after_timing_seed_offset);
  return seeds;
}

void run_protocol(const protocol_setting& setting, child_report& result, phase_clock& clock) {
  const bench_job& job = setting.job;
  if (is_timed(job) && setting.gpu == nullptr) throw error("timing needs the GPU: no GPU is in use here");
  const std::vector<std::uint64_t> seeds = validation_seeds_of(job);
  protocol_run run(setting, result);
  try {
    for (std::size_t i = 0; i + 1 < seeds.size(); ++i) run.validate(seeds[i], "before timing");
    clock.done("validation");
    if (is_timed(job)) {
      run.time();
      clock.done("timing");
      run.validate(seeds.back(), "after timing");
      clock.done("after_timing");
    }
  } catch (const kernel_failure& failure) {
    record_failure(result, failure);
  }
  result.evidence = run.evidence();
}

void run_profile_window(const protocol_setting& setting, child_report& result) {
  const bench_job& job = setting.job;
  if (setting.gpu == nullptr) throw error("the profiler window needs the GPU: no GPU is in use here");
  const cuda::driver_api& api = *setting.gpu->api;
  try {
    setting.seeds.prepare(job.seed, *setting.version.buffers);
    setting.version.buffers->memory().synchronize("making the profiled call's inputs");
    for (int i = 0; i < job.sampling.warmup; ++i) run_once(setting.version, "kernel");
    api.profiler_start();
    for (int i = 0; i < job.profile_calls.value_or(1); ++i) run_once(setting.version, "kernel");
    api.profiler_stop();
  } catch (const kernel_failure& failure) {
    record_failure(result, failure);
  }
  result.profile_calls = job.profile_calls.value_or(1);
}

}  // namespace kopt::harness
