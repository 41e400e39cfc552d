#include "harness/integrity_flags.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt::harness {

void add_integrity_flags(child_report& report, const std::vector<std::string>& libraries) {
  if (report.kernel) {
    const measure::timing_document& timing = *report.kernel;
    if (timing.side_streams > 0) {
      report.warnings.push_back(fmt::format(
          "side stream: the kernel's work ran on {} stream(s) besides the default one ({} in all); all of it is "
          "timed, from the first start to the last end",
          timing.side_streams, timing.streams));
    }
    if (timing.persisting_l2_calls > 0) {
      report.warnings.push_back(fmt::format(
          "persisting L2: solve() set a persisting-L2 limit in {} of {} calls; kopt reset it after every call, so "
          "nothing stayed pinned across the flush",
          timing.persisting_l2_calls, report.timed_call_checks ? report.timed_call_checks->calls : 0));
    }
  }
  if (!libraries.empty()) {
    report.warnings.push_back(
        fmt::format("library call: solve() loaded {}; their work is timed as the kernel's", fmt::join(libraries, ", ")));
  }
  report.libraries_loaded_by_kernel = libraries;
}

void add_library_kernels_flag(child_report& report, const std::vector<std::string>& triton_kernels) {
  if (!report.kernel) return;
  std::vector<std::string> foreign;
  for (const std::string& name : report.kernel->kernel_names) {
    if (std::find(triton_kernels.begin(), triton_kernels.end(), name) == triton_kernels.end()) foreign.push_back(name);
  }
  if (foreign.empty()) return;
  constexpr std::size_t shown = 3;
  const std::vector<std::string> first(foreign.begin(),
                                       foreign.begin() + static_cast<long>(std::min(shown, foreign.size())));
  report.warnings.push_back(fmt::format(
      "library call: run_kernel() ran {} kernel(s) Triton did not compile ({}{}): a library's work (torch, cuBLAS, "
      "...), timed as the module's",
      foreign.size(), fmt::join(first, ", "), foreign.size() > shown ? ", ..." : ""));
  report.library_kernels = foreign;
}

}  // namespace kopt::harness
