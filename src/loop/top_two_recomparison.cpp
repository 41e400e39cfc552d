#include "loop/top_two_recomparison.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/document.h"
#include "core/json_io.h"
#include "loop/run_directory.h"
#include "loop/turns_comparison.h"
#include "loop/version_judgement.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// The record of the two candidates' comparison: which was the candidate (a, the smaller ratio)
// and which the incumbent, and the GPU both ran on.
struct top_two_record : pipeline::turns_record {
  int candidate = 0;
  int incumbent = 0;
  int gpu = 0;
};
BOOST_DESCRIBE_STRUCT(top_two_record, (pipeline::turns_record), (candidate, incumbent, gpu))

// The interval of a candidate's ratio against the best; [ratio, ratio] when the record has none.
std::pair<double, double> interval_against_best(const candidate_record& c) {
  if (c.comparison) return {c.comparison->ratio_ci95[0], c.comparison->ratio_ci95[1]};
  return {ratio_against_best(c), ratio_against_best(c)};
}

// -1 for a comparison that names no GPU (of two benches' samples).
int gpu_compared_on(const candidate_record& c) {
  return c.comparison ? c.comparison->gpu.value_or(-1) : -1;
}

// The two positive candidates with the smallest ratios, the smaller first.
std::vector<const candidate_record*> two_smallest_ratios(const iteration_record& round) {
  std::vector<const candidate_record*> positive;
  for (const candidate_record& c : round.candidates) {
    if (c.eligible && c.outcome == version_outcome::positive && c.comparison) positive.push_back(&c);
  }
  std::stable_sort(positive.begin(), positive.end(),
                   [](const candidate_record* a, const candidate_record* b) {
                     return ratio_against_best(*a) < ratio_against_best(*b);
                   });
  if (positive.size() > 2) positive.resize(2);
  return positive;
}

}  // namespace

double ratio_against_best(const candidate_record& c) {
  return c.comparison ? c.comparison->ratio : 1.0;
}

std::optional<top_two_choice> recompare_top_two(const step_context& ctx, const iteration_record& round) {
  const std::vector<const candidate_record*> two = two_smallest_ratios(round);
  if (two.size() < 2 || gpu_compared_on(*two[0]) == gpu_compared_on(*two[1])) return std::nullopt;
  const auto [low0, high0] = interval_against_best(*two[0]);
  const auto [low1, high1] = interval_against_best(*two[1]);
  if (high0 < low1 || high1 < low0) return std::nullopt;  // the ratios tell them apart

  const candidate_record& a = *two[0];
  const candidate_record& b = *two[1];
  const fs::path folder_a = candidate_dir(ctx.run.dir, round.iteration, a.candidate);
  const fs::path folder_b = candidate_dir(ctx.run.dir, round.iteration, b.candidate);
  ctx.say(
      fmt::format("compare: candidate {} with candidate {} on GPU {} (their ratios against the best, from "
                  "GPUs {} and {}, overlap)",
                  a.candidate, b.candidate, ctx.settings.target.gpu, gpu_compared_on(a), gpu_compared_on(b)));
  const pipeline::turns_outcome turns =
      compare_versions_in_turns(ctx, held_open(ctx, a, folder_a, fmt::format("candidate {}", a.candidate)),
                                held_open(ctx, b, folder_b, fmt::format("candidate {}", b.candidate)),
                                std::max(a.median_ms.value_or(0), b.median_ms.value_or(0)));
  write_json_file(iteration_dir(ctx.run.dir, round.iteration) / top_two_comparison_name,
                  to_document(top_two_record{pipeline::record_of(turns), a.candidate, b.candidate,
                                             ctx.settings.target.gpu}));

  top_two_choice choice{a.candidate, ""};
  const measure::outcome_evidence& e = turns.evidence;
  if (!turns.failure.empty()) {
    choice.said =
        fmt::format("cand_{} and cand_{} could not be compared on GPU {} ({}): the smaller ratio stands",
                    a.candidate, b.candidate, ctx.settings.target.gpu, turns.failure);
    return choice;
  }
  if (e.verdict == measure::outcome::negative) choice.chosen = b.candidate;
  choice.said = fmt::format(
      "against cand_{} on GPU {}: cand_{} {:.4f}x the time of cand_{} ({}, 95 % interval "
      "[{:.4f}, {:.4f}])",
      choice.chosen == a.candidate ? b.candidate : a.candidate, ctx.settings.target.gpu, a.candidate, e.ratio,
      b.candidate, measure::to_string(e.verdict), e.ratio_ci95.low, e.ratio_ci95.high);
  return choice;
}

}  // namespace kopt::loop
