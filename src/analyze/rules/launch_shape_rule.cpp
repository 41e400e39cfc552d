// How the kernel was launched and how long it ran, as the report recorded it.

#include <cmath>

#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {

void read_launch_shape(const profile::kernel_launch& k, kernel_diagnosis& d) {
  launch_shape& s = d.launch;
  s.block_size = k.block_size;
  s.grid_size = k.grid_size;
  s.threads_per_block = k.number("launch__block_size");
  s.blocks = k.number("launch__grid_size");
  s.waves_per_sm = k.number("launch__waves_per_multiprocessor");
  s.sm_count = k.number("device__attribute_multiprocessor_count");
  if (!s.sm_count) s.sm_count = k.number("launch__sm_count");
  s.registers_per_thread = k.number("launch__registers_per_thread");
  s.shared_mem_per_block_bytes = k.number("launch__shared_mem_per_block");
  // Rounded to picoseconds: the round trip through seconds leaves binary noise in the digits.
  if (auto seconds = k.number("gpu__time_duration.sum")) s.duration_ns = std::round(*seconds * 1e12) / 1e3;
  s.sm_clock_hz = k.number("sm__cycles_elapsed.avg.per_second");
  s.dram_clock_hz = k.number("dram__cycles_elapsed.avg.per_second");
  if (!s.duration_ns) d.notes.push_back("gpu__time_duration.sum is missing: no kernel duration");
}

}  // namespace kopt::analyze::rules
