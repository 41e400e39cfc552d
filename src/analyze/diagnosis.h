#pragma once
// What kopt concludes about one profiled kernel launch, with the numbers behind each
// conclusion. Filled by the rules in rules/ (one idea per file), written by analysis_json and
// analysis_markdown.

#include <optional>
#include <string>
#include <vector>

#include "analyze/bottleneck.h"
#include "profile/rule_advice.h"

namespace kopt::analyze {

// A number that decided something, with the metric it came from.
struct evidence {
  std::string name;    // "memory SOL"
  double value = 0;
  std::string unit;    // "%", "waves", "blocks", ...
  std::string metric;  // the ncu metric (or "derived")
};

struct launch_shape {
  std::string block_size;  // "(256, 1, 1)"
  std::string grid_size;
  std::optional<double> threads_per_block;
  std::optional<double> blocks;
  std::optional<double> waves_per_sm;
  std::optional<double> sm_count;
  std::optional<double> registers_per_thread;
  std::optional<double> shared_mem_per_block_bytes;  // [byte] static + dynamic + driver
  std::optional<double> duration_ns;                 // [ns]
  std::optional<double> sm_clock_hz;                 // [Hz] as the report recorded it
  std::optional<double> dram_clock_hz;               // [Hz]
};

struct speed_of_light {
  std::optional<double> sm_pct;      // [% of peak] sm__throughput
  std::optional<double> memory_pct;  // [% of peak] gpu__compute_memory_throughput
  std::optional<double> dram_pct;
  std::optional<double> l2_pct;
  std::optional<double> l1_pct;
  std::string memory_unit;         // "dram", "l2", "l1" ("" when unknown)
  std::string memory_unit_metric;  // the breakdown metric equal to memory SOL
  std::string memory_unit_how;     // how the unit was chosen (breakdown or fallback)
};

struct occupancy {
  std::optional<double> theoretical_pct;  // [% of max warps per SM]
  std::optional<double> achieved_pct;
  std::optional<double> limit_blocks;     // blocks per SM the tightest limiter allows
  std::vector<std::string> limiters;      // "registers", "shared_mem", "warps", "blocks", "barriers"
};

struct stall_reason {
  std::string reason;              // "long_scoreboard"
  double cycles_per_issue = 0;     // [cycles] between two issued instructions spent in it
  double share_pct = 0;            // [%] of all cycles between issues
};

struct issue_stats {
  std::optional<double> issue_active_per_cycle;  // [inst/cycle] per scheduler, 1 at most
  std::optional<double> eligible_warps_per_cycle;
  std::optional<double> cycles_per_issue;        // [cycles] warp latency per issued inst
  std::vector<stall_reason> stalls;              // every nonzero reason, largest first
  std::string busiest_pipe;                      // "fma", "alu", "tensor", "lsu", ...
  std::optional<double> busiest_pipe_pct;        // [% of peak, active cycles]
};

struct roofline {
  std::optional<double> fp32_flop;     // [FLOP] fadd + fmul + 2 ffma
  std::optional<double> fp64_flop;     // [FLOP] dadd + dmul + 2 dfma
  std::optional<double> fp16_flop;     // [FLOP] counted as ncu's roofline does (2 hadd/hmul, 4 hfma)
  std::optional<double> tensor_flop;   // [FLOP] from sm__ops_path_tensor_src_* (fp types)
  std::string tensor_type;             // the busiest tensor path ("hgmma_src_bf16_dst_fp32_sparsity_off")
  std::optional<double> dram_bytes;    // [byte] read + write
  std::optional<double> scalar_flop_per_s;
  std::optional<double> tensor_flop_per_s;
  std::optional<double> dram_bytes_per_s;
  std::optional<double> arithmetic_intensity;   // [FLOP/byte] all FLOPs / DRAM bytes
  std::optional<double> peak_fp32_flop_per_s;   // from the report's peak_sustained and SM clock
  std::optional<double> peak_fp64_flop_per_s;   // the same for DFMA (none in analyses before v3)
  std::optional<double> peak_tensor_flop_per_s; // of tensor_type, from its peak_sustained
  std::optional<double> peak_dram_bytes_per_s;  // from dram__bytes.sum.peak_sustained and DRAM clock
  std::optional<double> ridge_flop_per_byte;    // where the compute roof meets the memory roof
  std::optional<double> compute_pct_of_peak;    // [%] of the roof that applies
  std::optional<double> dram_pct_of_peak;
  std::string bound_by;                         // "memory" or "compute" side of the ridge
  std::optional<double> headroom;               // attainable / achieved FLOP/s at this intensity
  std::vector<std::string> notes;               // how counts were obtained when not directly
};

struct memory_access {
  std::optional<double> load_bytes_per_sector;   // [byte/sector] of 32 for global loads
  std::optional<double> store_bytes_per_sector;
  std::optional<double> load_sectors_per_request;
  std::optional<double> shared_load_conflict_pct;   // [%] of shared-load wavefronts
  std::optional<double> shared_store_conflict_pct;
  std::optional<double> l1_hit_pct;
  std::optional<double> l2_hit_pct;
};

struct tensor_core_use {
  std::optional<double> pipe_pct;   // [% of peak, active cycles] tensor pipe
  std::optional<double> gmma_pct;   // [% of peak] wgmma (HGMMA) instruction issue
  std::optional<double> hmma_pct;   // [% of peak] legacy mma (HMMA) pipe cycles
  std::string instructions;         // "wgmma", "mma", "none"
};

struct classification {
  bottleneck cls = bottleneck::mixed;
  bool at_hardware_limit = false;
  std::string reason;             // one sentence with the numbers
  std::vector<evidence> numbers;  // the numbers that decided it
};

struct ncu_cross_check {
  bool available = false;         // a SOLBottleneck rule row was found
  std::string ncu_says;           // the rule's message
  std::string ncu_class;          // what it maps to in kopt's classes ("" if unclear)
  bool agrees = false;
};

struct recommendation {
  std::string id;
  std::string title;
  std::string backend;
  double score = 0;
  std::string why;   // which condition matched
  std::vector<std::string> tags;
};

// A source line where the launch's warps were sampled most (ncu's source page with counters).
struct hot_source_line {
  std::string file;          // as ncu recorded it (absolute path of the build)
  int line = 0;
  double share_pct = 0;      // [%] of the function's stall samples over all its source lines
  double stall_samples = 0;  // [samples]
  std::string top_stall;     // the line's largest stall reason in ncu's short form ("long_sb")
  std::string text;          // the source text, cut to about 100 characters
};

struct kernel_diagnosis {
  std::string launch_id;
  std::string kernel_name;
  launch_shape launch;
  speed_of_light sol;
  occupancy occ;
  issue_stats issue;
  roofline roof;
  memory_access memory;
  tensor_core_use tensor;
  classification verdict;
  std::vector<profile::rule_advice> ncu_advice;  // this launch's OPT/WRN rules, by speedup
  ncu_cross_check cross_check;
  std::vector<recommendation> recommendations;
  std::vector<hot_source_line> hottest_source_lines;  // most samples first; empty without counters
  std::vector<std::string> notes;  // caveats: missing metrics, fallbacks
};

}  // namespace kopt::analyze
