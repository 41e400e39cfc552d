// How the kernel was launched and how long it ran, as the report recorded it.

#include <cmath>

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {

void read_launch_shape(const profile::kernel_launch& k, kernel_diagnosis& d) {
  launch_shape& s = d.launch;
  s.block_size = k.block_size;
  s.grid_size = k.grid_size;
  read_metrics(k, s,
               {{&launch_shape::threads_per_block, "launch__block_size"},
                {&launch_shape::blocks, "launch__grid_size"},
                {&launch_shape::waves_per_sm, "launch__waves_per_multiprocessor"},
                {&launch_shape::sm_count, "device__attribute_multiprocessor_count"},
                {&launch_shape::sm_count, "launch__sm_count"},
                {&launch_shape::registers_per_thread, "launch__registers_per_thread"},
                {&launch_shape::shared_mem_per_block_bytes, "launch__shared_mem_per_block"},
                {&launch_shape::sm_clock_hz, "sm__cycles_elapsed.avg.per_second"},
                {&launch_shape::dram_clock_hz, "dram__cycles_elapsed.avg.per_second"}});
  // Rounded to picoseconds: the round trip through seconds leaves binary noise in the digits.
  if (auto seconds = k.number("gpu__time_duration.sum")) s.duration_ns = std::round(*seconds * 1e12) / 1e3;
  if (!s.duration_ns) d.notes.push_back("gpu__time_duration.sum is missing: no kernel duration");
}

}  // namespace kopt::analyze::rules
