#include "harness/physical_floor.h"

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::harness {

std::uint64_t floor_bytes(const kernel::kernel_plan& plan, std::uint64_t l2_bytes) {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  for (const auto& b : plan.buffers) {
    const auto size = static_cast<std::uint64_t>(b.bytes);
    if (b.role != kernel::buffer_role::out) read += size;
    if (b.role != kernel::buffer_role::in) written += size;
  }
  return read + (written > l2_bytes ? written - l2_bytes : 0);
}

double peak_dram_bandwidth(int memory_clock_khz, int bus_width_bits) {
  return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * static_cast<double>(bus_width_bits) / 8.0;
}

std::optional<std::string> floor_warning(double median_ms, std::uint64_t bytes, double peak_bytes_per_s) {
  if (peak_bytes_per_s <= 0 || bytes == 0) return std::nullopt;
  const double floor_ms = static_cast<double>(bytes) / peak_bytes_per_s * 1e3;
  if (median_ms >= floor_ms) return std::nullopt;
  return fmt::format(
      "below the physical floor: the cold median is {:.2f} us, but the {} that must cross DRAM before "
      "the call ends (its inputs, and the outputs the L2 cannot hold) take {:.2f} us at the device's peak "
      "DRAM bandwidth ({:.2f} TB/s); part of the work was not done or not counted, or the kernel does "
      "not read all of its inputs",
      median_ms * 1e3, format_bytes(static_cast<double>(bytes)), floor_ms * 1e3, peak_bytes_per_s / 1e12);
}

}  // namespace kopt::harness
