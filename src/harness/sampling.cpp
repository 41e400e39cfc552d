#include "harness/sampling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/text.h"
#include "cuda/nvml_library.h"
#include "harness/kernel_failure.h"
#include "measure/statistics.h"
#include "measure/stopping_rule.h"
#include "measure/timer_resolution.h"
#include "measure/warmup_rule.h"

namespace kopt::harness {
namespace {

std::optional<measure::clock_reading> reading_of(const std::optional<cuda::sm_clocks>& clocks) {
  if (!clocks) return std::nullopt;
  return measure::clock_reading{clocks->sm_now_mhz, clocks->sm_max_mhz, clocks->event_reasons, clocks->throttled};
}

// The SM clock as NVML saw it right after a sample (one every `clock_interval`): the lowest
// and highest reading, and which samples ran while a throttle reason (power, thermal, ...) was
// active.
struct clock_watch {
  int min_mhz = 0;   // [MHz]
  int max_mhz = 0;   // [MHz]
  std::vector<std::size_t> throttled_samples;
  std::set<std::string> reasons;

  void add(std::size_t sample, const std::optional<cuda::sm_clocks>& clocks) {
    if (!clocks) return;
    min_mhz = min_mhz == 0 ? clocks->sm_now_mhz : std::min(min_mhz, clocks->sm_now_mhz);
    max_mhz = std::max(max_mhz, clocks->sm_now_mhz);
    if (clocks->throttled) {
      throttled_samples.push_back(sample);
      reasons.insert(clocks->event_reasons);
    }
  }
};

// kopt's own host time around each call, by step: what the judge costs on bench's wall time.
class host_overhead {
 public:
  void add(const std::string& step, std::chrono::steady_clock::time_point since) {
    add_ms(step, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count());
  }
  void add_ms(const std::string& step, double ms) { m_ms[step].push_back(ms); }
  std::map<std::string, double> medians() const {
    std::map<std::string, double> result;
    for (const auto& [step, values] : m_ms) result[step] = measure::summarize(values).median;
    return result;
  }

 private:
  std::map<std::string, std::vector<double>> m_ms;
};

// How often the SM clock is read while sampling (throttling changes over tens of ms).
constexpr std::chrono::milliseconds clock_interval{20};

// "work in flight: a kernel k of call 3 was still running ...": `late` is call_work::late,
// `found` where kopt found it ("around call 4", "after the last call").
std::string work_in_flight_line(const std::string& late, const std::string& found) {
  return fmt::format("work in flight: {} was still running after solve() returned and kopt had synchronised and read "
                     "that call's work (found {}); its time escaped the timer. solve() must leave no work running when "
                     "it returns",
                     late, found);
}

// "unreadable GPU record: ...": `record` is call_work::unreadable.
std::string unreadable_record_line(const std::string& record) {
  return fmt::format("unreadable GPU record: CUPTI gave {} no valid start and end time, so the call's time cannot be "
                     "measured; work issued from another CUDA context, or a profiler beside kopt, can cause it",
                     record);
}

// [ms] How long the engine waits after the last call for work launched late.
constexpr std::chrono::milliseconds late_work_settle{20};

// Warm-up: at least the asked calls, then until the median of the last calls stops moving (a
// block's warm-up is its count: it only refills what the other version's block left cold).
// `sample` times one call; the warm-up's times go to `warmup_ms`.
template <typename Sample>
measure::warmup_state warm_up(Sample& sample, const sampling_options& options, std::vector<double>& warmup_ms) {
  measure::warmup_rule warmup;
  warmup.min_calls = static_cast<std::size_t>(std::max(options.warmup, 0));
  measure::warmup_state warmup_end = measure::warmup_state::stable;
  if (options.exact_samples > 0) {
    for (std::size_t i = 0; i < warmup.min_calls; ++i) warmup_ms.push_back(sample().span_ns / 1e6);
  } else if (warmup.min_calls > 0) {
    const auto warmup_started = std::chrono::steady_clock::now();
    do {
      warmup_ms.push_back(sample().span_ns / 1e6);
      warmup_end = measure::warmup_progress(warmup, warmup_ms, std::chrono::steady_clock::now() - warmup_started);
    } while (warmup_end == measure::warmup_state::warming);
  }
  return warmup_end;
}

// When sampling stops: the options' rule, or for a block exactly its count of calls.
measure::stopping_rule stopping_rule_of(const sampling_options& options) {
  measure::stopping_rule rule;
  rule.min_samples = static_cast<std::size_t>(std::max(options.repeat, measure::fewest_samples));
  rule.min_time = std::chrono::duration<double>(options.min_seconds);
  rule.max_time = std::chrono::duration<double>(options.max_seconds);
  rule.target_relative_half_width = options.target_relative_half_width;
  if (options.exact_samples > 0) {
    rule.min_samples = rule.max_samples = options.exact_samples;
    rule.min_time = std::chrono::duration<double>(0);
    rule.max_time = std::chrono::duration<double>(std::numeric_limits<double>::infinity());
    rule.target_relative_half_width = -1;  // never "converged" (not even on equal samples): the block is its count
  }
  return rule;
}

// One timed call's figures into the record.
void add_sample(measure::sampling_record& record, const call_sample& s) {
  record.gpu_ms.push_back(s.span_ns / 1e6);
  record.kernel_sum_ms.push_back(s.kernel_ns / 1e6);
  record.host_ms.push_back(s.host_ns / 1e6);
  record.issue_ms.push_back(s.issue_host_ns / 1e6);
  record.hold_us.push_back(s.hold_ns / 1e3);
  record.kernels_per_call = std::max(record.kernels_per_call, s.kernels);
  record.kernel_names.insert(s.kernel_names.begin(), s.kernel_names.end());
  record.memory_ops_per_call = std::max(record.memory_ops_per_call, s.memory_ops);
  record.streams = std::max(record.streams, s.streams);
  record.side_streams = std::max(record.side_streams, s.side_streams);
}

// After the last call: work a host thread launched late, or that the last calls left running
// (when the work is judged), and GPU records CUPTI dropped (the calls' work could not all be
// counted), fail the version.
void check_after_sampling(call_timer& timer, const cuda::activity_recorder& recorder, std::uint64_t dropped_before,
                          const sampling_options& options) {
  if (options.judge_work) {
    const call_work settled = timer.work_after_settling(late_work_settle);
    if (!settled.foreign.empty()) {
      throw kernel_failure{run_status::failed, fmt::format("host thread: {} (after the last call); solve() must launch its work "
                                                 "before it returns", settled.foreign)};
    }
    if (!settled.late.empty()) throw kernel_failure{run_status::failed, work_in_flight_line(settled.late, "after the last call")};
  }
  if (const std::uint64_t dropped = recorder.dropped_records() - dropped_before; dropped > 0) {
    throw kernel_failure{run_status::failed, fmt::format("lost GPU records: CUPTI dropped {} activity records while timing, so "
                                               "the calls' work cannot all be counted (fewer launches per call help)",
                                               dropped)};
  }
}

}  // namespace

std::string judge_sample(const call_sample& sample, std::uint64_t call, std::uint64_t output_bytes) {
  if (!sample.foreign.empty()) {
    return fmt::format("host thread: {} (around call {}); solve() must launch its work before it returns",
                       sample.foreign, call);
  }
  if (!sample.late.empty()) return work_in_flight_line(sample.late, fmt::format("around call {}", call));
  if (sample.left_other_context) {
    return fmt::format("work in flight: call {} returned with another CUDA context current on kopt's thread, so that "
                       "kopt's synchronisation would not have waited for its own context's work; solve() must leave "
                       "the context it was called in current",
                       call);
  }
  if (sample.kernels == 0) {
    return fmt::format(
        "work outside kernels: call {} ran no kernel on the GPU ({} copies/memsets, {} between host and device); "
        "the work was done on the host or with copies",
        call, sample.memory_ops, format_bytes(static_cast<double>(sample.host_copy_bytes)));
  }
  // Half the outputs' size crossing between host and device means they were made off the GPU.
  if (output_bytes > 0 && 2 * sample.host_copy_bytes >= output_bytes) {
    return fmt::format(
        "work outside kernels: call {} copied {} between host and device memory (its outputs are {}); "
        "the outputs were computed off the GPU",
        call, format_bytes(static_cast<double>(sample.host_copy_bytes)), format_bytes(static_cast<double>(output_bytes)));
  }
  return "";
}

measure::timing_document sample_gpu_time(const cuda::driver_api& api, cuda::activity_recorder& recorder,
                     cuda::launch_attribution* attribution, l2_flusher* flusher,
                     const std::function<void()>& call, const sampling_options& options,
                     const std::string& device_uuid, const sampling_hooks& hooks) {
  if (options.judge_work && attribution == nullptr) std::abort();  // judging needs to know who issued the work
  call_timer timer(api, recorder, attribution, flusher);
  // Seen on an H200: the first call of honest kernels found a persisting-L2 limit already set;
  // whatever set it, it was not the version under test.
  timer.clear_persisting_l2();
  const std::uint64_t dropped_before = recorder.dropped_records();
  std::uint64_t calls = 0;
  std::uint64_t persisting_l2_calls = 0;
  host_overhead overhead;
  const auto sample = [&] {
    ++calls;
    const auto prepare_start = std::chrono::steady_clock::now();
    if (hooks.before_each) hooks.before_each(calls);
    overhead.add("inputs_and_poison", prepare_start);
    const call_sample s = timer.time_call(call, calls);
    overhead.add_ms("flush", s.flush_host_ns / 1e6);
    overhead.add_ms("read_records", s.read_records_host_ns / 1e6);
    overhead.add_ms("persisting_l2_reset", s.l2_reset_host_ns / 1e6);
    // Either side's: a time kopt cannot read is no time to report.
    if (!s.unreadable.empty()) throw kernel_failure{run_status::failed, unreadable_record_line(s.unreadable)};
    if (options.judge_work) {
      if (const std::string verdict = judge_sample(s, calls, options.output_bytes); !verdict.empty()) {
        throw kernel_failure{run_status::failed, verdict};
      }
    }
    if (s.persisting_l2_bytes > 0) ++persisting_l2_calls;
    const auto checks_start = std::chrono::steady_clock::now();
    if (hooks.after_each) hooks.after_each(calls, s);
    overhead.add("checks", checks_start);
    return s;
  };
  std::vector<double> warmup_ms;
  const measure::warmup_state warmup_end = warm_up(sample, options, warmup_ms);
  const cuda::nvml_library& nvml = cuda::nvml_library::instance();
  const auto clocks_before = nvml.clocks(device_uuid);
  measure::stopping_monitor monitor(stopping_rule_of(options));
  measure::sampling_record record;
  clock_watch watch;
  const auto started = std::chrono::steady_clock::now();
  auto last_clock_read = started;
  measure::stop_reason reason = measure::stop_reason::keep_going;
  while (true) {
    add_sample(record, sample());
    const auto kopt_start = std::chrono::steady_clock::now();
    // Read while the GPU is still warm from the sample, outside the timed region. NVML's
    // queries cost about 1 ms (seen on an H200), more than many calls: the clock is read
    // after the first sample and then once per `clock_interval`.
    if (record.gpu_ms.size() == 1 || kopt_start - last_clock_read >= clock_interval) {
      watch.add(record.gpu_ms.size() - 1, nvml.clocks(device_uuid));
      last_clock_read = kopt_start;
    }
    if (reason == measure::stop_reason::keep_going) {
      reason = monitor.update(record.gpu_ms, std::chrono::steady_clock::now() - started);
    }
    overhead.add("clock_and_stopping_rule", kopt_start);
    if (reason != measure::stop_reason::keep_going && !(hooks.wants_more && hooks.wants_more())) break;
  }
  check_after_sampling(timer, recorder, dropped_before, options);
  record.persisting_l2_calls = persisting_l2_calls;
  record.stop_reason = std::string(measure::to_string(reason));
  record.warmup_calls = static_cast<int>(warmup_ms.size());
  record.warmup_end = std::string(measure::to_string(warmup_end));
  record.host_overhead_ms = overhead.medians();
  record.clocks_before = reading_of(clocks_before);
  record.sm_mhz_min = watch.min_mhz;
  record.sm_mhz_max = watch.max_mhz;
  record.throttled_samples = watch.throttled_samples;
  record.throttle_reasons.assign(watch.reasons.begin(), watch.reasons.end());
  return measure::timing_document_of(record);
}

std::string protocol_description(bool hot, std::size_t l2_bytes) {
  return hot ? "hot: no flush; every call's inputs freshly generated just before it (left in L2 by the generator)"
             : fmt::format("cold: L2 flushed before every sample by reading {}", format_bytes(2.0 * static_cast<double>(l2_bytes)));
}

}  // namespace kopt::harness
