#include "loop/version_speed_of_light.h"

#include <fmt/format.h>

#include "analyze/analysis_reader.h"
#include "core/error.h"
#include "core/files.h"
#include "kernel/flops_annotation.h"
#include "pipeline/bench_preparation.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// The widest floating type among the outputs: what the problem computes in ("" when unknown).
std::string output_type(const loop_settings& settings) {
  try {
    const kernel::kernel_plan plan = pipeline::plan_target(settings.target);
    std::string type;
    int size = 0;
    for (const auto& b : plan.buffers) {
      const kernel::element_type& t = b.param.element;
      if (b.role == kernel::buffer_role::in || !t.is_floating() || t.size_bytes <= size) continue;
      type = std::string(t.name);
      size = t.size_bytes;
    }
    return type;
  } catch (const error&) {
    return "";
  }
}

// The peak for the problem's data type, from the version's profile; the note says why not.
void add_flop_peak(measure::speed_of_light_inputs& in, const loop_settings& settings,
                   const fs::path& analysis_file) {
  std::error_code ec;
  if (!fs::is_regular_file(analysis_file, ec)) {
    in.compute_note = "the version has no profile to read the FLOP peak from";
    return;
  }
  const analyze::analysis a = analyze::read_analysis_file(analysis_file);
  const analyze::kernel_diagnosis* slowest = analyze::slowest_launch(a);
  const std::string type = output_type(settings);
  if (slowest == nullptr || type.empty()) {
    in.compute_note = "the problem's data type or profile is unknown";
    return;
  }
  const analyze::roofline& roof = slowest->roof;
  if (type == "float32" && roof.peak_fp32_flop_per_s) {
    in.peak_flop_per_s = roof.peak_fp32_flop_per_s;
    in.peak_source = "FP32 peak of the version's ncu profile";
    return;
  }
  if (type == "float64" && roof.peak_fp64_flop_per_s) {
    in.peak_flop_per_s = roof.peak_fp64_flop_per_s;
    in.peak_source = "FP64 peak of the version's ncu profile";
    return;
  }
  const std::string short_type = type == "bfloat16" ? "bf16" : type == "float16" ? "fp16" : "";
  if (!short_type.empty() && roof.peak_tensor_flop_per_s &&
      roof.tensor_type.find(short_type) != std::string::npos) {
    in.peak_flop_per_s = roof.peak_tensor_flop_per_s;
    in.peak_source =
        fmt::format("{} tensor peak of the version's ncu profile ({})", short_type, roof.tensor_type);
    return;
  }
  in.compute_note = fmt::format("no {} FLOP peak in the version's ncu profile", type);
}

}  // namespace

std::optional<measure::speed_of_light_figures> version_speed_of_light(const loop_settings& settings,
                                                                      const pipeline::bench_result& bench,
                                                                      const fs::path& analysis_file) {
  if (!bench.physical_floor || !bench.kernel) return std::nullopt;
  const harness::physical_floor_record& floor = *bench.physical_floor;
  measure::speed_of_light_inputs in;
  in.problem_bytes = static_cast<double>(floor.problem_bytes);
  if (floor.measured_dram_bytes_per_s) {
    in.dram_bytes_per_s = *floor.measured_dram_bytes_per_s;
    in.dram_source = "a device-to-device copy measured before timing";
  } else {
    in.dram_bytes_per_s = floor.peak_dram_bytes_per_s;
    in.dram_source = "the DRAM peak (memory clock x bus width; a copy could not be measured)";
  }
  if (!settings.target.ref.empty()) {
    in.flops = kernel::annotated_flops(settings.target.ref, read_text_file(settings.target.ref, "reference"),
                                       settings.target.dims);
  }
  if (!in.flops) {
    in.compute_note = "the reference states no `kopt: flops=EXPR`";
  } else {
    add_flop_peak(in, settings, analysis_file);
  }
  const std::optional<double> reference_ms =
      bench.reference ? std::optional<double>(bench.reference->median_ms) : std::nullopt;
  return measure::speed_of_light(in, bench.kernel->median_ms, reference_ms);
}

}  // namespace kopt::loop
