#include "harness/result_fields.h"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "measure/comparison.h"

namespace kopt::harness {

double headline_ms(const json& timing) {
  return timing.contains("estimate_ms") ? timing["estimate_ms"].get<double>() : timing["median_ms"].get<double>();
}

void add_speedup(json& result) {
  const double kernel_ms = headline_ms(result["kernel"]);
  result["speedup_vs_reference"] = kernel_ms > 0 ? headline_ms(result["reference"]) / kernel_ms : 0;
  const auto kernel_samples = result["kernel"]["samples_ms"].get<std::vector<double>>();
  const auto reference_samples = result["reference"]["samples_ms"].get<std::vector<double>>();
  const measure::comparison c = measure::compare_samples(reference_samples, kernel_samples);
  if (c.ratio_ci95.low > 0) {
    result["speedup_vs_reference_ci95"] = json::array({1.0 / c.ratio_ci95.high, 1.0 / c.ratio_ci95.low});
  }
  result["kernel_vs_reference"] = measure::to_json(c);
}

// Samples taken while NVML reported a throttle reason (power, thermal, ...) ran slower than
// the card can.
std::optional<std::string> throttle_warning(const char* who, const json& timing) {
  if (!timing.contains("clocks") || !timing["clocks"].contains("throttling")) return std::nullopt;
  const json& t = timing["clocks"]["throttling"];
  const auto throttled = t["samples_throttled"].get<std::size_t>();
  if (throttled == 0) return std::nullopt;
  return fmt::format("{} of {} {} samples ran while the GPU reported throttling ({})", throttled,
                     timing["sample_count"].get<std::size_t>(), who,
                     fmt::join(t["reasons"].get<std::vector<std::string>>(), "; "));
}

void add_timing_conclusions(json& result) {
  if (result.contains("reference")) add_speedup(result);
  for (const char* who : {"kernel", "reference"}) {
    if (!result.contains(who)) continue;
    if (const auto warning = throttle_warning(who, result[who])) result["warnings"].push_back(*warning);
  }
}

}  // namespace kopt::harness
