#pragma once
// Ghost kernels (EXPLOITS.md #26): a version whose timed calls run a decoy, or nothing of its
// own, while a library does the work, or whose source names a kernel that never runs. Each
// timed call's kernels are tallied as a set; once the version's own kernels are known (the
// functions of a CUDA kernel's library, elf_functions.h; what Triton compiled for a module),
// every kernel is named with its source, and a run in which some timed call ran no kernel of
// the version's own fails as `ghost kernel:`. A version that hands part of its work to a
// library beside a kernel of its own stays a flagged library call (#21). Pure; tested on its own.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/child_report.h"
#include "harness/kernels_ran.h"

namespace kopt::harness {

// The sets of kernels the timed calls ran, with how many calls ran each.
class kernel_tally {
 public:
  void add(const std::set<std::string>& kernels) { ++m_calls[kernels]; }
  std::vector<kernel_set_record> records() const;

 private:
  std::map<std::set<std::string>, std::uint64_t> m_calls;
};

// From the report's timed_kernel_sets and the version's own kernel names: fills kernels_ran
// and, when the report is still ok, fails it as "ghost kernel: ..." if a timed call ran kernels
// but none of the version's own. `call` names the version's entry ("solve()", "run_kernel()").
void add_kernel_sources(child_report& report, const std::set<std::string>& own, std::string_view call);

}  // namespace kopt::harness
