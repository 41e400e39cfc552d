// How well global accesses use the sectors they move (32 useful bytes per 32-byte sector is
// perfect coalescing), shared-memory bank conflicts, and cache hit rates.

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {
namespace {

std::optional<double> pct_ratio(const std::optional<double>& part, const std::optional<double>& whole) {
  if (!part || !whole || *whole <= 0) return std::nullopt;
  return 100.0 * *part / *whole;
}

}  // namespace

void read_memory_access(const profile::kernel_launch& k, kernel_diagnosis& d) {
  memory_access& m = d.memory;
  read_metrics(k, m,
               {{&memory_access::load_bytes_per_sector,
                 "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"},
                {&memory_access::store_bytes_per_sector,
                 "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio"},
                {&memory_access::l1_hit_pct, "l1tex__t_sector_hit_rate.pct"},
                {&memory_access::l2_hit_pct, "lts__t_sector_hit_rate.pct"}});
  const auto sectors = k.number("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  const auto requests = k.number("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  if (sectors && requests && *requests > 0) m.load_sectors_per_request = *sectors / *requests;
  m.shared_load_conflict_pct =
      pct_ratio(k.number("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
                k.number("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
  m.shared_store_conflict_pct =
      pct_ratio(k.number("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
                k.number("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"));
}

}  // namespace kopt::analyze::rules
