// Position on the roofline: achieved FLOP/s (scalar and tensor-core), DRAM bytes/s, arithmetic
// intensity, and the roofs read from the report's own peak_sustained metrics and the clocks it
// recorded (never from a table of GPUs: clocks differ from run to run).

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {
namespace {

std::string thread_inst(const char* op) {
  return fmt::format("smsp__sass_thread_inst_executed_op_{}_pred_on.sum", op);
}

// Executed thread instructions of one op. The full set lacks the plain .sum (kopt's profile
// requests it) but has the rate per elapsed cycle, which times the elapsed cycles gives back.
std::optional<double> op_count(const profile::kernel_launch& k, const char* op, bool& estimated) {
  if (auto n = k.number(thread_inst(op))) return n;
  const auto rate = k.number(thread_inst(op) + ".per_cycle_elapsed");
  const auto cycles = k.number("smsp__cycles_elapsed.avg");
  if (!rate || !cycles) return std::nullopt;
  estimated = true;
  return *rate * *cycles;
}

// FLOPs per instruction of each op, as ncu's roofline counts them (an FMA is two; a half
// instruction works on a pair of values).
struct weighted_op {
  const char* op;
  double flop_per_inst;
};

std::optional<double> flops(const profile::kernel_launch& k, const std::array<weighted_op, 3>& ops,
                            bool& estimated) {
  std::optional<double> total;
  for (const auto& [op, weight] : ops) {
    if (auto n = op_count(k, op, estimated)) total = total.value_or(0) + weight * *n;
  }
  return total;
}

// Tensor-core work by source type; the sm__ops_path_tensor_op_* metrics split the same work
// by instruction and would count it twice.
constexpr std::array<const char*, 6> tensor_types = {
    "fp16", "bf16_dst_fp32", "tf32_dst_fp32", "fp64", "fp8_sparsity_off", "fp8_sparsity_on"};

// The instruction path that did most tensor work ("hgmma_src_bf16_dst_fp32_sparsity_off"). Its
// own peak is the roof that applies: the per-type peaks count the sparse rate, twice the dense
// one, so a dense GEMM at its limit would read as half way there.
std::string busiest_tensor_path(const profile::kernel_launch& k) {
  constexpr std::string_view prefix = "sm__ops_path_tensor_op_";
  std::string best;
  double best_ops = 0;
  k.for_each_number([&](const std::string& name, double value) {
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0) return;
    if (name.compare(name.size() - 4, 4, ".sum") != 0) return;
    if (value > best_ops) {
      best_ops = value;
      best = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    }
  });
  return best;
}

}  // namespace

void read_roofline(const profile::kernel_launch& k, kernel_diagnosis& d) {
  roofline& r = d.roof;
  bool estimated = false;
  r.fp32_flop = flops(k, {{{"fadd", 1}, {"fmul", 1}, {"ffma", 2}}}, estimated);
  r.fp64_flop = flops(k, {{{"dadd", 1}, {"dmul", 1}, {"dfma", 2}}}, estimated);
  r.fp16_flop = flops(k, {{{"hadd", 2}, {"hmul", 2}, {"hfma", 4}}}, estimated);
  if (estimated) {
    r.notes.push_back("scalar instruction counts derived from their per-cycle rates times "
                      "elapsed cycles (the report lacks smsp__sass_thread_inst_executed_op_*.sum)");
  }

  double best_tensor = 0;
  for (const char* type : tensor_types) {
    const auto ops = k.number(fmt::format("sm__ops_path_tensor_src_{}.sum", type));
    if (!ops) continue;
    r.tensor_flop = r.tensor_flop.value_or(0) + *ops;
    if (*ops > best_tensor) {
      best_tensor = *ops;
      r.tensor_type = type;
    }
  }

  const auto read = k.number("dram__bytes_read.sum");
  const auto write = k.number("dram__bytes_write.sum");
  if (read || write) r.dram_bytes = read.value_or(0) + write.value_or(0);

  const auto& shape = d.launch;
  if (!shape.duration_ns || *shape.duration_ns <= 0) return;
  const double seconds = *shape.duration_ns * 1e-9;
  const double scalar = r.fp32_flop.value_or(0) + r.fp64_flop.value_or(0) + r.fp16_flop.value_or(0);
  if (r.fp32_flop || r.fp64_flop || r.fp16_flop) r.scalar_flop_per_s = scalar / seconds;
  if (r.tensor_flop) r.tensor_flop_per_s = *r.tensor_flop / seconds;
  if (r.dram_bytes) r.dram_bytes_per_s = *r.dram_bytes / seconds;
  const double all_flop = scalar + r.tensor_flop.value_or(0);
  if (r.dram_bytes && *r.dram_bytes > 0 && all_flop > 0) {
    r.arithmetic_intensity = all_flop / *r.dram_bytes;
  }

  // Roofs: [inst/cycle] or [ops/cycle] for the whole GPU times the SM clock.
  if (shape.sm_clock_hz) {
    // The GPU-wide FFMA rate is reported under sm__ (per SM summed), not smsp__.
    auto ffma = k.number("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained");
    if (!ffma) ffma = k.number(thread_inst("ffma") + ".peak_sustained");
    if (ffma) {
      r.peak_fp32_flop_per_s = 2.0 * *ffma * *shape.sm_clock_hz;
    }
    auto dfma = k.number("sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained");
    if (!dfma) dfma = k.number(thread_inst("dfma") + ".peak_sustained");
    if (dfma) r.peak_fp64_flop_per_s = 2.0 * *dfma * *shape.sm_clock_hz;
    const std::string path = busiest_tensor_path(k);
    const auto path_peak = k.number(fmt::format("sm__ops_path_tensor_op_{}.sum.peak_sustained", path));
    if (!path.empty() && path_peak) {
      r.tensor_type = path;
      r.peak_tensor_flop_per_s = *path_peak * *shape.sm_clock_hz;
    } else if (!r.tensor_type.empty()) {
      if (auto peak = k.number(fmt::format("sm__ops_path_tensor_src_{}.sum.peak_sustained", r.tensor_type))) {
        r.peak_tensor_flop_per_s = *peak * *shape.sm_clock_hz;
        r.notes.push_back("tensor roof from the per-type peak, which may count the sparse rate");
      }
    }
  }
  if (shape.dram_clock_hz) {
    if (auto per_cycle = k.number("dram__bytes.sum.peak_sustained")) {
      r.peak_dram_bytes_per_s = *per_cycle * *shape.dram_clock_hz;
    }
  }

  // The roof that applies: tensor cores when they did most of the work, else FP32.
  const bool tensor_work = r.tensor_flop && *r.tensor_flop > scalar;
  const std::optional<double> achieved = tensor_work ? r.tensor_flop_per_s : r.scalar_flop_per_s;
  const std::optional<double> peak = tensor_work ? r.peak_tensor_flop_per_s : r.peak_fp32_flop_per_s;
  if (achieved && peak && *peak > 0) r.compute_pct_of_peak = 100.0 * *achieved / *peak;
  if (r.dram_bytes_per_s && r.peak_dram_bytes_per_s && *r.peak_dram_bytes_per_s > 0) {
    r.dram_pct_of_peak = 100.0 * *r.dram_bytes_per_s / *r.peak_dram_bytes_per_s;
  }
  if (peak && r.peak_dram_bytes_per_s && *r.peak_dram_bytes_per_s > 0) {
    r.ridge_flop_per_byte = *peak / *r.peak_dram_bytes_per_s;
  }
  if (r.arithmetic_intensity && r.ridge_flop_per_byte && peak && achieved && *achieved > 0) {
    r.bound_by = *r.arithmetic_intensity < *r.ridge_flop_per_byte ? "memory" : "compute";
    const double attainable = std::min(*peak, *r.arithmetic_intensity * *r.peak_dram_bytes_per_s);
    r.headroom = attainable / *achieved;
  }
}

}  // namespace kopt::analyze::rules
