// The hottest source lines of a launch: the lines of its function where ncu's warp sampler
// found its warps most often, with each line's share of the function's samples and its
// largest stall reason.
//
// The source page is per function, not per launch, and a function's lines sum the samples of
// all its launches (source_counters.h). Launches of one function therefore share one list.

#include <algorithm>
#include <string>
#include <string_view>

#include "analyze/rules/rules.h"
#include "core/text.h"

namespace kopt::analyze::rules {
namespace {

constexpr size_t hot_line_count = 5;
constexpr size_t text_chars = 100;  // [bytes] of source text kept per line

std::string_view name_before_parameters(std::string_view name) {
  return trim(name.substr(0, name.find('(')));
}

// The raw page and the source page print the same demangled name ("k(const float *, int)";
// a Triton kernel's plain "softmax_rows"). When no name is equal, the name before its
// parameter list decides, but only if exactly one function has it (overloads stay apart).
const profile::source_function* function_of(const std::vector<profile::source_function>& functions,
                                            const std::string& kernel_name) {
  for (const auto& f : functions) {
    if (f.name == kernel_name) return &f;
  }
  const std::string_view wanted = name_before_parameters(kernel_name);
  const profile::source_function* found = nullptr;
  for (const auto& f : functions) {
    if (wanted.empty() || name_before_parameters(f.name) != wanted) continue;
    if (found) return nullptr;
    found = &f;
  }
  return found;
}

}  // namespace

void attach_hottest_source_lines(const std::vector<profile::source_function>& functions,
                                 kernel_diagnosis& d) {
  const profile::source_function* f = function_of(functions, d.kernel_name);
  if (f == nullptr || f->stall_samples <= 0) return;
  std::vector<const profile::source_line*> sampled;
  for (const auto& line : f->lines) {
    if (line.stall_samples > 0) sampled.push_back(&line);
  }
  // Stable: equal counts keep the page's order.
  std::stable_sort(sampled.begin(), sampled.end(),
                   [](const auto* a, const auto* b) { return a->stall_samples > b->stall_samples; });
  if (sampled.size() > hot_line_count) sampled.resize(hot_line_count);
  for (const auto* line : sampled) {
    d.hottest_source_lines.push_back({line->file, line->line, 100.0 * line->stall_samples / f->stall_samples,
                                      line->stall_samples, line->top_stall, shorten(line->text, text_chars)});
  }
}

}  // namespace kopt::analyze::rules
