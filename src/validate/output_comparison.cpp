#include "validate/output_comparison.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/text.h"
#include "validate/element_access.h"

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

namespace {

// [elements] per piece of a comparison: pieces are compared on several threads, and a fixed
// size keeps every result (the error sum included) the same whatever the thread count. Small
// enough that a 4M-element output (a 4096x1024 softmax) keeps 16 threads busy, as the verdict
// compares a hundred such outputs one after the other.
constexpr std::size_t piece_elements = std::size_t{1} << 18;

// What one piece [begin, end) found; merged in index order.
struct piece_result {
  std::size_t compared = 0, mismatches = 0, unwritten = 0, stray_writes = 0, non_finite = 0;
  std::size_t error_count = 0;
  double error_sum = 0, max_abs_error = 0, max_rel_error = 0;
  // Spread of both sides over the compared elements: a constant answer where the reference
  // varies fails even when a loose tolerance would accept every value.
  double kernel_min = INFINITY, kernel_max = -INFINITY, reference_min = INFINITY, reference_max = -INFINITY;
  std::vector<mismatch> first_mismatches;
};

// Every element of [begin, end), whatever it holds: poison left or written where it should not
// be, non-finite values, mismatches (the first few kept).
template <typename Access>
piece_result compare_piece(const std::byte* kernel_output, const std::byte* reference_output, std::uint64_t poison_bits,
                           const tolerance& tol, std::size_t begin, std::size_t end) {
  piece_result p;
  const auto record = [&](std::size_t i, double k, double r, const char* what) {
    ++p.mismatches;
    if (p.first_mismatches.size() < kept_mismatches) p.first_mismatches.push_back({i, k, r, what});
  };
  for (std::size_t i = begin; i < end; ++i) {
    const bool reference_untouched = Access::bits(reference_output, i) == poison_bits;
    const bool kernel_untouched = Access::bits(kernel_output, i) == poison_bits;
    const double k = Access::read(kernel_output, i);
    const double r = Access::read(reference_output, i);
    if (reference_untouched) {
      if (!kernel_untouched) {
        ++p.stray_writes;
        record(i, k, r, "wrote outside the reference's extent");
      }
      continue;
    }
    ++p.compared;
    if (kernel_untouched) {
      ++p.unwritten;
      record(i, k, r, "left as poison");
      continue;
    }
    p.kernel_min = std::min(p.kernel_min, k);
    p.kernel_max = std::max(p.kernel_max, k);
    p.reference_min = std::min(p.reference_min, r);
    p.reference_max = std::max(p.reference_max, r);
    if (std::isfinite(k) && std::isfinite(r)) {
      const double error = std::fabs(k - r);
      p.max_abs_error = std::max(p.max_abs_error, error);
      if (r != 0) p.max_rel_error = std::max(p.max_rel_error, error / std::fabs(r));
      p.error_sum += error;
      ++p.error_count;
    }
    const bool non_finite = !std::isfinite(k) && std::isfinite(r);
    if (!within(k, r, tol)) {
      if (non_finite) ++p.non_finite;
      record(i, k, r, std::isnan(k) && !std::isnan(r) ? "NaN" : non_finite ? "Inf" : "value");
    }
  }
  return p;
}

// The same piece when every element was written by both sides, is finite and within tolerance
// (a passing kernel's every piece), with the same figures in the same order; nothing when any
// element is not, for compare_piece to say what. No call in the loop, so the accumulators stay
// in registers, where compare_piece's rare calls keep them in memory.
template <typename Access>
std::optional<piece_result> compare_clean_piece(const std::byte* kernel_output, const std::byte* reference_output,
                                                std::uint64_t poison_bits, const tolerance& tol, std::size_t begin,
                                                std::size_t end) {
  double error_sum = 0, max_abs_error = 0, max_rel_error = 0;
  double kernel_min = INFINITY, kernel_max = -INFINITY, reference_min = INFINITY, reference_max = -INFINITY;
  for (std::size_t i = begin; i < end; ++i) {
    const double k = Access::read(kernel_output, i);
    const double r = Access::read(reference_output, i);
    const double error = std::fabs(k - r);
    const bool clean = Access::bits(reference_output, i) != poison_bits && Access::bits(kernel_output, i) != poison_bits &&
                       std::isfinite(k) && std::isfinite(r) &&
                       (tol.exact ? k == r : error <= tol.atol + tol.rtol * std::fabs(r));
    if (!clean) return std::nullopt;
    kernel_min = std::min(kernel_min, k);
    kernel_max = std::max(kernel_max, k);
    reference_min = std::min(reference_min, r);
    reference_max = std::max(reference_max, r);
    max_abs_error = std::max(max_abs_error, error);
    if (r != 0) max_rel_error = std::max(max_rel_error, error / std::fabs(r));
    error_sum += error;
  }
  piece_result p;
  p.compared = p.error_count = end - begin;
  p.error_sum = error_sum;
  p.max_abs_error = max_abs_error;
  p.max_rel_error = max_rel_error;
  p.kernel_min = kernel_min;
  p.kernel_max = kernel_max;
  p.reference_min = reference_min;
  p.reference_max = reference_max;
  return p;
}

// The pieces of [0, elements), compared on up to `threads` threads.
template <typename Access>
std::vector<piece_result> compare_pieces(std::span<const std::byte> kernel_output,
                                         std::span<const std::byte> reference_output, std::uint64_t poison_bits,
                                         const tolerance& tol, std::size_t elements, unsigned threads) {
  const std::size_t pieces = (elements + piece_elements - 1) / piece_elements;
  std::vector<piece_result> results(pieces);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < pieces; i = next++) {
      const std::size_t begin = i * piece_elements;
      const std::size_t end = std::min(elements, begin + piece_elements);
      const auto clean = compare_clean_piece<Access>(kernel_output.data(), reference_output.data(), poison_bits, tol,
                                                     begin, end);
      results[i] = clean ? *clean : compare_piece<Access>(kernel_output.data(), reference_output.data(), poison_bits,
                                                          tol, begin, end);
    }
  };
  const std::size_t used = std::min<std::size_t>(pieces, std::max(1u, threads));
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < used; ++t) helpers.emplace_back(work);
  work();
  for (auto& h : helpers) h.join();
  return results;
}

}  // namespace

output_comparison compare_output(const std::string& name, const kernel::element_type& type,
                                 std::span<const std::byte> kernel_output,
                                 std::span<const std::byte> reference_output, std::uint64_t poison_bits,
                                 const tolerance& tol, unsigned threads) {
  output_comparison c;
  c.name = name;
  c.used = tol;
  c.elements = kernel_output.size() / static_cast<std::size_t>(type.size_bytes);
  double error_sum = 0;
  std::size_t error_count = 0;
  double kernel_min = INFINITY, kernel_max = -INFINITY, reference_min = INFINITY, reference_max = -INFINITY;
  const std::vector<piece_result> pieces = visit_element_access(type, [&](auto access) {
    return compare_pieces<decltype(access)>(kernel_output, reference_output, poison_bits, tol, c.elements,
                                            threads == 0 ? std::thread::hardware_concurrency() : threads);
  });
  for (const piece_result& p : pieces) {
    c.compared += p.compared;
    c.mismatches += p.mismatches;
    c.unwritten += p.unwritten;
    c.stray_writes += p.stray_writes;
    c.non_finite += p.non_finite;
    error_sum += p.error_sum;
    error_count += p.error_count;
    c.max_abs_error = std::max(c.max_abs_error, p.max_abs_error);
    c.max_rel_error = std::max(c.max_rel_error, p.max_rel_error);
    kernel_min = std::min(kernel_min, p.kernel_min);
    kernel_max = std::max(kernel_max, p.kernel_max);
    reference_min = std::min(reference_min, p.reference_min);
    reference_max = std::max(reference_max, p.reference_max);
    for (const mismatch& m : p.first_mismatches) {
      if (c.first_mismatches.size() < kept_mismatches) c.first_mismatches.push_back(m);
    }
  }
  c.mean_abs_error = error_count > 0 ? error_sum / static_cast<double>(error_count) : 0;
  c.constant_output = c.compared - c.unwritten >= 2 && kernel_min == kernel_max && reference_min != reference_max;
  if (c.constant_output) {
    c.constant_value = kernel_min;
    c.reference_low = reference_min;
    c.reference_high = reference_max;
  }
  c.passed = c.mismatches == 0 && c.compared > 0 && !c.constant_output;
  return c;
}

std::string output_comparison::failure_class() const {
  if (compared > 0 && unwritten == compared) return "no write";
  if (unwritten > 0) return "partial write";
  if (stray_writes > 0) return "out of bounds";
  if (non_finite > 0) return "NaN/Inf";
  if (constant_output) return "constant output";
  return "wrong values";
}

std::string output_comparison::verdict() const { return failure_class() + ": " + summary(); }

std::string output_comparison::summary() const {
  if (compared == 0) return fmt::format("{}: the reference wrote no element of it; nothing to compare", name);
  if (passed) {
    return fmt::format("{}: {} elements match (max abs error {:.3g}, mean {:.3g})", name,
                       format_thousands(static_cast<long long>(compared)), max_abs_error, mean_abs_error);
  }
  if (mismatches == 0 && constant_output) {
    return fmt::format("{}: every element is {:.6g} while the reference's vary over [{:.6g}, {:.6g}] "
                       "(each within the tolerance, but the answer is a constant)",
                       name, constant_value, reference_low, reference_high);
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
              {"max_rel_error", c.max_rel_error},
              {"non_finite", c.non_finite},
              {"constant_output", c.constant_output},
              {"mean_abs_error", c.mean_abs_error},
              {"first_mismatches", first},
              {"tolerance", to_json(c.used)},
              {"summary", c.summary()}};
}

}  // namespace kopt::validate
