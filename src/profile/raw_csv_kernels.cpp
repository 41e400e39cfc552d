#include "profile/raw_csv_kernels.h"

#include "profile/raw_csv.h"

namespace kopt::profile {

std::vector<profiled_kernel> read_profiled_kernels(std::string_view raw_csv, std::string_view source) {
  std::vector<profiled_kernel> kernels;
  for (const kernel_launch& launch : read_raw_csv(raw_csv, source).launches) {
    // The raw page's reader keeps times in seconds; the record states nanoseconds, as ncu does.
    const std::optional<double> duration_s = launch.number("gpu__time_duration.sum");
    kernels.push_back({.id = launch.id,
                       .name = launch.kernel_name,
                       .grid = launch.grid_size,
                       .block = launch.block_size,
                       .duration_ns = duration_s ? std::optional<double>(*duration_s * 1e9) : std::nullopt,
                       .sm_throughput_pct = launch.number("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                       .memory_throughput_pct = launch.number(
                           "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")});
  }
  return kernels;
}

}  // namespace kopt::profile
