#include "pipeline/alternating_comparison.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "core/document.h"
#include "measure/statistics.h"
#include "measure/timer_resolution.h"

namespace kopt::pipeline {
namespace {

// [ms] kopt's own time per timed call (fresh inputs, poison, flush, reading the records): a
// first guess of a block's cost, corrected from the first round's wall time.
constexpr double per_call_overhead_ms = 0.25;
constexpr int fewest_calls = 10;
constexpr int most_calls = 2000;
constexpr double block_trim = 0.2;  // of each end

int calls_for(double block_ms, double per_call_ms) {
  const double calls = block_ms / std::max(per_call_ms, 1e-6);
  return static_cast<int>(
      std::clamp(std::lround(calls), static_cast<long>(fewest_calls), static_cast<long>(most_calls)));
}

// A block's estimate: the mean of its middle 60 % of samples (robust to a stray slow call, like
// the median, but not stuck on the timer's steps). Seen on an H200: the medians of blocks of a
// 4.6 µs kernel sit on the 32 ns steps of the timer, so that the ratio of two of them jumps by
// 1.4 % at a time and an unchanged kernel was called slower.
double block_estimate(const measure::timing_document& timing) {
  return measure::trimmed_mean(timing.samples_ms, block_trim);
}

double median_of(const std::vector<double>& samples) {
  return samples.empty() ? 0 : measure::summarize(samples).median;
}

void append_samples(std::vector<double>& all, const measure::timing_document& timing) {
  all.insert(all.end(), timing.samples_ms.begin(), timing.samples_ms.end());
}

}  // namespace

void note_failure(turns_outcome& out, int version, const std::string& failure) {
  if (!out.failure.empty() || failure.empty()) return;
  out.failure = fmt::format("{}: {}", version == 0 ? "the candidate" : "the incumbent", failure);
  out.failed_version = version;
  out.stop = "failed";
  out.evidence.verdict = measure::outcome::inconclusive;
}

turns_outcome compare_in_turns(block_timing& session, double expected_ms, const turns_settings& settings) {
  using clock = std::chrono::steady_clock;
  turns_outcome out;
  out.block_calls = calls_for(settings.block_ms, expected_ms + per_call_overhead_ms);
  const auto started = clock::now();
  const auto elapsed_s = [&] { return std::chrono::duration<double>(clock::now() - started).count(); };
  std::vector<measure::paired_round> paired;
  while (true) {
    // Candidate first in even rounds, incumbent first in odd ones.
    const bool candidate_first = out.rounds % 2 == 0;
    measure::timing_document timings[2];
    const auto round_started = clock::now();
    for (const std::size_t version : {candidate_first ? 0u : 1u, candidate_first ? 1u : 0u}) {
      timing_block block = session.time_block(version, out.block_calls);
      if (!block.failure.empty() || !block.timing) {
        note_failure(out, static_cast<int>(version), block.failure.empty() ? "a block came back untimed" : block.failure);
        out.seconds = elapsed_s();
        return out;
      }
      if (!block.warning.empty() &&
          std::find(out.warnings.begin(), out.warnings.end(), block.warning) == out.warnings.end()) {
        out.warnings.push_back(block.warning);
      }
      out.blocks.push_back(block_record{out.rounds, static_cast<int>(version), block.placement,
                                        block.timing->samples_ms.size(), block_estimate(*block.timing)});
      timings[version] = std::move(*block.timing);
    }
    const double round_ms = std::chrono::duration<double, std::milli>(clock::now() - round_started).count();
    append_samples(out.candidate_ms, timings[0]);
    append_samples(out.incumbent_ms, timings[1]);
    for (const measure::timing_document& t : timings) {
      out.timer_tick_ms = std::max(out.timer_tick_ms, static_cast<double>(t.timer_tick_ns) / 1e6);
    }
    // This round's two records, candidate's and incumbent's, whichever went first.
    const block_record& first = out.blocks[out.blocks.size() - 2];
    const block_record& second = out.blocks.back();
    const block_record& candidate = first.version == 0 ? first : second;
    const block_record& incumbent = first.version == 0 ? second : first;
    if (incumbent.estimate_ms > 0) {
      const double ratio = candidate.estimate_ms / incumbent.estimate_ms;
      out.round_ratios.push_back(ratio);
      paired.push_back(measure::paired_round{ratio, candidate.placement, incumbent.placement});
    }
    ++out.rounds;
    if (out.rounds == 1) {
      // Two blocks of `block_calls` each took round_ms: aim the next ones at block_ms.
      out.block_calls = calls_for(settings.block_ms, round_ms / (2.0 * out.block_calls));
    }
    out.evidence = measure::classify_paired(paired, median_of(out.candidate_ms), median_of(out.incumbent_ms),
                                            out.timer_tick_ms);
    if (out.evidence.verdict != measure::outcome::inconclusive) {
      out.stop = "settled";
      break;
    }
    if (elapsed_s() >= settings.max_seconds) {
      out.stop = "time limit";
      break;
    }
    if (out.rounds >= settings.max_rounds) {
      out.stop = "round limit";
      break;
    }
  }
  out.seconds = elapsed_s();
  return out;
}

comparison_summary summary_of(const turns_outcome& o) {
  comparison_summary s;
  static_cast<measure::outcome_record&>(s) = measure::record_of(o.evidence);
  s.method =
      "in turns: both versions held open in their own measuring processes, timed block after block, the "
      "order alternating, each version over several placements of its buffers; ratio = median over rounds "
      "of (candidate block's 20 %-trimmed mean / incumbent block's)";
  s.stop = o.stop;
  if (!o.failure.empty()) {
    s.failure = o.failure;
    s.failed_version = o.failed_version == 0 ? "candidate" : "incumbent";
  }
  s.rounds = o.rounds;
  s.block_calls = o.block_calls;
  s.seconds = o.seconds;
  s.timer_tick_ms = o.timer_tick_ms;
  s.warnings = o.warnings;
  s.gpu_at_start = o.gpu_at_start;
  s.gpu_at_end = o.gpu_at_end;
  return s;
}

turns_record record_of(const turns_outcome& o) {
  turns_record r;
  static_cast<comparison_summary&>(r) = summary_of(o);
  r.round_ratios = o.round_ratios;
  for (const block_record& b : o.blocks) {
    r.blocks.push_back({b.round, b.version == 0 ? "candidate" : "incumbent",
                        b.placement < 0 ? std::nullopt : std::optional<int>(b.placement), b.calls,
                        b.estimate_ms});
  }
  r.candidate_samples_ms = o.candidate_ms;
  r.incumbent_samples_ms = o.incumbent_ms;
  return r;
}

json to_json(const turns_outcome& o) {
  return to_document(record_of(o));
}

json summary_json(const turns_outcome& o) {
  return to_document(summary_of(o));
}

}  // namespace kopt::pipeline
