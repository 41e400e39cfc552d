#pragma once
// The physical floor of a call: the bytes its problem must move through device memory (every
// input read once, every output written once, inout buffers both) over the device's peak DRAM
// bandwidth. A cold time below it means the work was not all done, or not all counted, and is
// flagged with both numbers: no honest kernel beats it.

#include <cstdint>
#include <optional>
#include <string>

#include "kernel/buffer_plan.h"

namespace kopt::harness {

// [bytes] the problem must move at least.
std::uint64_t problem_bytes(const kernel::kernel_plan& plan);

// [bytes/s] from the peak memory clock [kHz] and the bus width [bits] (double data rate).
double peak_dram_bandwidth(int memory_clock_khz, int bus_width_bits);

// "below the physical floor: ..." when `median_ms` is under the floor, else nothing.
std::optional<std::string> floor_warning(double median_ms, std::uint64_t bytes, double peak_bytes_per_s);

}  // namespace kopt::harness
