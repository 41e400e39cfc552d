#pragma once
// The physical floor of a cold call: the bytes that must cross DRAM before its last kernel ends,
// over the device's peak DRAM bandwidth. After the L2 flush every input is read from DRAM; but
// the L2 writes back, so outputs that fit in it may reach DRAM after the kernel has ended (a
// 32 MiB softmax ran below a floor that counted its writes, on an H100 whose L2 holds 50 MB).
// A cold time below it means the work was not all done, or not all counted, and is flagged with
// both numbers: no honest kernel beats it.

#include <cstdint>
#include <optional>
#include <string>

#include "kernel/buffer_plan.h"

namespace kopt::harness {

// [bytes] what must cross DRAM before a cold call ends: the reads, and the writes beyond what an
// L2 of `l2_bytes` can hold.
std::uint64_t floor_bytes(const kernel::kernel_plan& plan, std::uint64_t l2_bytes);

// [bytes/s] from the peak memory clock [kHz] and the bus width [bits] (double data rate).
double peak_dram_bandwidth(int memory_clock_khz, int bus_width_bits);

// "below the physical floor: ..." when `median_ms` is under the floor, else nothing.
std::optional<std::string> floor_warning(double median_ms, std::uint64_t bytes, double peak_bytes_per_s);

}  // namespace kopt::harness
