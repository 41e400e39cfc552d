#include "validate/output_comparison.h"

#include <cmath>

#include <fmt/format.h>

#include "core/text.h"
#include "validate/element_codec.h"

namespace kopt::validate {
namespace {

constexpr std::size_t kept_mismatches = 5;

bool within(double kernel_value, double reference_value, const tolerance& tol) {
  if (std::isnan(reference_value)) return std::isnan(kernel_value);
  if (std::isnan(kernel_value)) return false;
  if (std::isinf(reference_value) || std::isinf(kernel_value)) return kernel_value == reference_value;
  if (tol.exact) return kernel_value == reference_value;
  return std::fabs(kernel_value - reference_value) <= tol.atol + tol.rtol * std::fabs(reference_value);
}

}  // namespace

output_comparison compare_output(const std::string& name, const kernel::element_type& type,
                                 std::span<const std::byte> kernel_output,
                                 std::span<const std::byte> reference_output, std::uint64_t poison_bits,
                                 const tolerance& tol) {
  output_comparison c;
  c.name = name;
  c.used = tol;
  c.elements = kernel_output.size() / static_cast<std::size_t>(type.size_bytes);
  double error_sum = 0;
  std::size_t error_count = 0;
  const auto record = [&](std::size_t i, double k, double r, const char* what) {
    ++c.mismatches;
    if (c.first_mismatches.size() < kept_mismatches) c.first_mismatches.push_back({i, k, r, what});
  };
  const element_codec& codec = codec_for(type);
  for (std::size_t i = 0; i < c.elements; ++i) {
    const bool reference_untouched = codec.bits(reference_output, i) == poison_bits;
    const bool kernel_untouched = codec.bits(kernel_output, i) == poison_bits;
    const double k = codec.read(kernel_output, i);
    const double r = codec.read(reference_output, i);
    if (reference_untouched) {
      if (!kernel_untouched) {
        ++c.stray_writes;
        record(i, k, r, "wrote outside the reference's extent");
      }
      continue;
    }
    ++c.compared;
    if (kernel_untouched) {
      ++c.unwritten;
      record(i, k, r, "left as poison");
      continue;
    }
    if (std::isfinite(k) && std::isfinite(r)) {
      const double error = std::fabs(k - r);
      c.max_abs_error = std::max(c.max_abs_error, error);
      error_sum += error;
      ++error_count;
    }
    if (!within(k, r, tol)) record(i, k, r, std::isnan(k) && !std::isnan(r) ? "NaN" : "value");
  }
  c.mean_abs_error = error_count > 0 ? error_sum / static_cast<double>(error_count) : 0;
  c.passed = c.mismatches == 0 && c.compared > 0;
  return c;
}

std::string output_comparison::summary() const {
  if (compared == 0) return fmt::format("{}: the reference wrote no element of it; nothing to compare", name);
  if (passed) {
    return fmt::format("{}: {} elements match (max abs error {:.3g}, mean {:.3g})", name,
                       format_thousands(static_cast<long long>(compared)), max_abs_error, mean_abs_error);
  }
  std::string text = fmt::format("{}: {} of {} elements differ", name, format_thousands(static_cast<long long>(mismatches)),
                                 format_thousands(static_cast<long long>(elements)));
  if (unwritten > 0) text += fmt::format(", {} never written by the kernel", format_thousands(static_cast<long long>(unwritten)));
  if (stray_writes > 0) {
    text += fmt::format(", {} written outside the reference's extent", format_thousands(static_cast<long long>(stray_writes)));
  }
  if (!first_mismatches.empty()) {
    const mismatch& m = first_mismatches.front();
    text += fmt::format("; first at [{}] ({}): kernel {:.6g} vs reference {:.6g}", m.index, m.what, m.kernel_value,
                        m.reference_value);
  }
  return text;
}

json to_json(const output_comparison& c) {
  json first = json::array();
  for (const auto& m : c.first_mismatches) {
    first.push_back(json{{"index", m.index}, {"kernel", m.kernel_value}, {"reference", m.reference_value}, {"what", m.what}});
  }
  // NaN is not valid JSON; a kernel NaN shows as null.
  for (auto& m : first) {
    if (std::isnan(m["kernel"].get<double>())) m["kernel"] = nullptr;
    if (std::isnan(m["reference"].get<double>())) m["reference"] = nullptr;
  }
  return json{{"name", c.name},
              {"passed", c.passed},
              {"elements", c.elements},
              {"compared", c.compared},
              {"mismatches", c.mismatches},
              {"unwritten", c.unwritten},
              {"stray_writes", c.stray_writes},
              {"max_abs_error", c.max_abs_error},
              {"mean_abs_error", c.mean_abs_error},
              {"first_mismatches", first},
              {"tolerance", to_json(c.used)},
              {"summary", c.summary()}};
}

}  // namespace kopt::validate
