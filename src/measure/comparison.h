#pragma once
// Deciding whether version B is faster than version A from two sets of timing samples:
// a Mann-Whitney U test for "the distributions differ", a bootstrap interval of the
// median ratio B/A for "by how much", and a minimum effect so that a real but negligible
// shift is still called the same.

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/json_io.h"
#include "measure/statistics.h"

namespace kopt::measure {

struct mann_whitney_result {
  double u = 0;        // U statistic of the first sample
  double z = 0;        // normal approximation, tie- and continuity-corrected
  double p_value = 1;  // two-sided
};

mann_whitney_result mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// Percentile bootstrap of median(b) / median(a); deterministic for a given seed.
interval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                int resamples = 2000, std::uint64_t seed = 0x6b6f7074,
                                double confidence = 0.95);

enum class verdict { faster, slower, same };  // of B relative to A (lower time is faster)

std::string_view to_string(verdict v);

struct comparison_rule {
  double alpha = 0.05;           // significance level of the U test
  double min_effect = 0.01;      // |ratio - 1| below this is "same" however significant
};

struct comparison {
  verdict outcome = verdict::same;
  double median_ratio = 1;       // median(b) / median(a)
  interval ratio_ci95;
  mann_whitney_result test;
  std::string_view reason;       // "significant", "not significant", "below minimum effect"
};

// Needs at least 2 samples on each side; otherwise the outcome is "same" with that reason.
comparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                           const comparison_rule& rule = {});

json to_json(const comparison& c);

}  // namespace kopt::measure
