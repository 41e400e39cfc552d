#pragma once
// Deciding whether version B is faster than version A from two sets of timing samples:
// a Mann-Whitney U test for "the distributions differ", a bootstrap interval of the
// median ratio B/A for "by how much", and a minimum effect so that a real but negligible
// shift is still called the same.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "measure/statistics.h"

namespace kopt::measure {

struct mann_whitney_result {
  double u = 0;        // U statistic of the first sample
  double z = 0;        // normal approximation, tie- and continuity-corrected
  double p_value = 1;  // two-sided
};
BOOST_DESCRIBE_STRUCT(mann_whitney_result, (), (u, z, p_value))

mann_whitney_result mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// Percentile bootstrap of median(b) / median(a); deterministic for a given seed.
interval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                int resamples = 2000, std::uint64_t seed = 0x6b6f7074,
                                double confidence = 0.95);

enum class verdict { faster, slower, same };  // of B relative to A (lower time is faster)
BOOST_DESCRIBE_ENUM(verdict, faster, slower, same)

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

// A comparison as documents carry it (a bench result's kernel_vs_reference).
struct comparison_record {
  measure::verdict verdict = measure::verdict::same;
  std::string reason;
  double median_ratio = 1;
  std::array<double, 2> median_ratio_ci95{};
  mann_whitney_result mann_whitney;
};
BOOST_DESCRIBE_STRUCT(comparison_record, (), (verdict, reason, median_ratio, median_ratio_ci95, mann_whitney))

comparison_record record_of(const comparison& c);

}  // namespace kopt::measure
