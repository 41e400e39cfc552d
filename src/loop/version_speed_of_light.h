#pragma once
// A confirmed version's distance from the hardware limit (measure/speed_of_light.h), from what
// the run has: the problem's minimum bytes and the DRAM bandwidth a copy reached, both from the
// version's bench in the confirmation; the FLOPs from the reference's `kopt: flops=EXPR`
// (kernel/flops_annotation.h); the FLOP peak for the problem's data type from the version's
// ncu profile (its analysis.json): FP32 for float32 outputs, the tensor peak for 16-bit ones
// when the profile ran that tensor path.

#include <filesystem>
#include <optional>

#include "loop/loop_settings.h"
#include "measure/speed_of_light.h"
#include "pipeline/bench_result.h"

namespace kopt::loop {

// None when the bench has no physical floor (a Triton module's problem has no buffer plan).
// `analysis_file` may be missing (then no compute bound, said so). Throws kopt::error for a
// malformed `kopt: flops=` in the reference.
std::optional<measure::speed_of_light_figures> version_speed_of_light(const loop_settings& settings,
                                                                      const pipeline::bench_result& bench,
                                                                      const std::filesystem::path& analysis_file);

}  // namespace kopt::loop
