// Whether tensor cores ran, and through which instructions: Hopper's warpgroup wgmma
// (HGMMA/IGMMA/BGMMA, issued asynchronously from shared memory) or the older warp-level mma
// (HMMA/IMMA/BMMA) that Ampere-style code and many Triton/CUTLASS 2.x kernels use.

#include <string>

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {
namespace {

// Sum of the .sum of every sm__ops_path_tensor_op_<kind>* metric ("hgmma" matches the hgmma
// variants of every source type).
double ops_of(const profile::kernel_launch& k, const std::string& kind, bool& present) {
  const std::string prefix = "sm__ops_path_tensor_op_" + kind;
  double total = 0;
  k.for_each_number([&](const std::string& name, double value) {
    if (name.rfind(prefix, 0) != 0 || name.size() < 4 || name.substr(name.size() - 4) != ".sum") return;
    present = true;
    total += value;
  });
  return total;
}

}  // namespace

void read_tensor_cores(const profile::kernel_launch& k, kernel_diagnosis& d) {
  tensor_core_use& t = d.tensor;
  read_metrics(
      k, t,
      {{&tensor_core_use::pipe_pct, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"},
       {&tensor_core_use::gmma_pct, "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active"},
       {&tensor_core_use::hmma_pct,
        "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"}});

  bool present = false;
  const double warpgroup = ops_of(k, "hgmma", present) + ops_of(k, "igmma", present) + ops_of(k, "bgmma", present);
  const double warp = ops_of(k, "hmma", present) + ops_of(k, "imma", present) + ops_of(k, "bmma", present);
  if (present) {
    t.instructions = warpgroup > 0 ? "wgmma" : warp > 0 ? "mma" : "none";
    return;
  }
  // Without op counts, instruction issue says which path ran.
  if (t.gmma_pct && *t.gmma_pct > 0) {
    t.instructions = "wgmma";
  } else if (t.hmma_pct && *t.hmma_pct > 0) {
    t.instructions = "mma";
  } else {
    t.instructions = "none";
  }
}

}  // namespace kopt::analyze::rules
