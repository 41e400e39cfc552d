#include "measure/outcome.h"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "core/document.h"
#include "core/error.h"
#include "measure/comparison.h"

namespace kopt::measure {
namespace {

constexpr double minimum_margin = 0.01;

}  // namespace

std::string_view to_string(outcome o) {
  return enumerator_name(o);
}

outcome parse_outcome(const std::string& name) {
  outcome o{};
  if (boost::describe::enum_from_string(name.c_str(), o)) return o;
  throw error(fmt::format("unknown strategy outcome \"{}\": one of positive, negative, neutral, inconclusive, "
                          "rejected",
                          name));
}

namespace {

// Settles `e` from its ratio's interval, with the margin for its incumbent's median.
void settle(outcome_evidence& e, double timer_tick_ms) {
  e.margin = std::max(minimum_margin, e.incumbent_median_ms > 0 ? 2 * timer_tick_ms / e.incumbent_median_ms : 0.0);
  const double low = 1 - e.margin;
  const double high = 1 + e.margin;
  if (e.ratio_ci95.high < low) {
    e.verdict = outcome::positive;
  } else if (e.ratio_ci95.low > high) {
    e.verdict = outcome::negative;
  } else if (e.ratio_ci95.low >= low && e.ratio_ci95.high <= high) {
    e.verdict = outcome::neutral;
  } else {
    e.verdict = outcome::inconclusive;
  }
}

}  // namespace

outcome_evidence classify_against(const std::vector<double>& candidate_ms, const std::vector<double>& incumbent_ms,
                                  double timer_tick_ms) {
  outcome_evidence e;
  if (candidate_ms.size() < 2 || incumbent_ms.size() < 2) return e;
  const comparison c = compare_samples(incumbent_ms, candidate_ms);
  e.ratio = c.median_ratio;
  e.ratio_ci95 = c.ratio_ci95;
  e.incumbent_median_ms = summarize(incumbent_ms).median;
  e.candidate_median_ms = summarize(candidate_ms).median;
  settle(e, timer_tick_ms);
  return e;
}

outcome_evidence classify_paired(const std::vector<paired_round>& rounds, double candidate_median_ms,
                                 double incumbent_median_ms, double timer_tick_ms) {
  outcome_evidence e;
  e.candidate_median_ms = candidate_median_ms;
  e.incumbent_median_ms = incumbent_median_ms;
  if (rounds.size() < minimum_paired_rounds) return e;
  std::vector<double> ratios;
  for (const paired_round& r : rounds) ratios.push_back(r.ratio);
  const sample_summary s = summarize(ratios);
  e.ratio = s.median;
  e.ratio_ci95 = s.median_ci95;
  if (const std::optional<interval> sets = placement_interval(rounds)) {
    e.ratio_ci95 = interval{std::min(e.ratio_ci95.low, sets->low), std::max(e.ratio_ci95.high, sets->high)};
  }
  settle(e, timer_tick_ms);
  return e;
}

outcome_record record_of(const outcome_evidence& e) {
  return {e.verdict,
          e.ratio,
          {e.ratio_ci95.low, e.ratio_ci95.high},
          e.margin,
          e.candidate_median_ms,
          e.incumbent_median_ms};
}

json to_json(const outcome_evidence& e) {
  return to_document(record_of(e));
}

}  // namespace kopt::measure
