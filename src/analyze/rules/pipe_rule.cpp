// The busiest execution pipe (fma, alu, fp64, tensor, lsu, ...): what a compute-bound kernel
// saturates, read from the instruction-issue utilization of each pipe.

#include <string>
#include <string_view>

#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {

void read_busiest_pipe(const profile::kernel_launch& k, kernel_diagnosis& d) {
  constexpr std::string_view prefix = "sm__inst_executed_pipe_";
  constexpr std::string_view suffix = ".avg.pct_of_peak_sustained_active";
  k.for_each_number([&](const std::string& name, double value) {
    if (name.size() <= prefix.size() + suffix.size()) return;
    if (name.compare(0, prefix.size(), prefix) != 0) return;
    if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return;
    const std::string pipe = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    // Sub-pipes (fmaheavy, tensor_op_hmma) and realtime variants repeat their parent pipe.
    if (pipe.find('_') != std::string::npos || pipe == "fmaheavy" || pipe == "fmalite") return;
    if (!d.issue.busiest_pipe_pct || value > *d.issue.busiest_pipe_pct) {
      d.issue.busiest_pipe = pipe;
      d.issue.busiest_pipe_pct = value;
    }
  });
  // Tensor and FP64 work is reported as pipe cycles rather than instruction issue.
  for (const char* pipe : {"tensor", "fp64"}) {
    const auto pct = k.number(std::string("sm__pipe_") + pipe + "_cycles_active.avg.pct_of_peak_sustained_active");
    if (pct && (!d.issue.busiest_pipe_pct || *pct > *d.issue.busiest_pipe_pct)) {
      d.issue.busiest_pipe = pipe;
      d.issue.busiest_pipe_pct = pct;
    }
  }
}

}  // namespace kopt::analyze::rules
