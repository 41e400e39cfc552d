#pragma once
// The DRAM bandwidth a device-to-device copy reaches on this GPU now: what the memory side of
// the speed-of-light bound is measured against (the peak from the memory clock and bus width
// is a ceiling no copy reaches; a bound at it would understate how close a version came).
// Measured by the timing child before its instruments start, so that no record of these
// copies reaches the judge.

#include <optional>

#include "harness/gpu_context.h"

namespace kopt::harness {

// [bytes/s] read plus written, the best of a few batches of copies far larger than the L2;
// none when the memory for them cannot be had (a problem that fills the GPU) or a copy fails.
std::optional<double> measured_copy_bandwidth(const gpu_context& gpu);

}  // namespace kopt::harness
