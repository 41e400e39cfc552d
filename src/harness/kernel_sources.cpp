#include "harness/kernel_sources.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt::harness {

std::vector<kernel_set_record> kernel_tally::records() const {
  std::vector<kernel_set_record> records;
  for (const auto& [kernels, calls] : m_calls) records.push_back({{kernels.begin(), kernels.end()}, calls});
  return records;
}

namespace {

bool any_own(const std::vector<std::string>& kernels, const std::set<std::string>& own) {
  return std::any_of(kernels.begin(), kernels.end(), [&](const std::string& k) { return own.contains(k); });
}

// "a, b, c, ..." of at most three names.
std::string first_names(const std::vector<std::string>& names) {
  constexpr std::size_t shown = 3;
  const std::vector<std::string> first(names.begin(), names.begin() + static_cast<long>(std::min(shown, names.size())));
  return fmt::format("{}{}", fmt::join(first, ", "), names.size() > shown ? ", ..." : "");
}

}  // namespace

void add_kernel_sources(child_report& report, const std::set<std::string>& own, std::string_view call) {
  std::map<std::string, std::uint64_t> calls_of;
  std::uint64_t calls = 0;
  std::uint64_t ghost_calls = 0;
  std::vector<std::string> ghost_kernels;
  for (const kernel_set_record& set : report.timed_kernel_sets) {
    calls += set.calls;
    for (const std::string& name : set.kernels) calls_of[name] += set.calls;
    if (set.kernels.empty() || any_own(set.kernels, own)) continue;  // no kernel at all: work outside kernels
    ghost_calls += set.calls;
    for (const std::string& name : set.kernels) {
      if (std::find(ghost_kernels.begin(), ghost_kernels.end(), name) == ghost_kernels.end()) ghost_kernels.push_back(name);
    }
  }
  report.kernels_ran.clear();
  for (const auto& [name, n] : calls_of) {
    report.kernels_ran.push_back({name, own.contains(name) ? kernel_source::version : kernel_source::other, n});
  }
  if (ghost_calls == 0 || !report.ok()) return;
  report.status = run_status::failed;
  report.reason = fmt::format(
      "ghost kernel: {} of {} timed calls ran no kernel of the version's own, only kernels it did not compile ({}); "
      "{} must run a kernel compiled from its source (kernels_ran in the result names each kernel and its source)",
      ghost_calls, calls, first_names(ghost_kernels), call);
}

}  // namespace kopt::harness
