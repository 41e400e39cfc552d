#include "measure/speed_of_light.h"

#include <cmath>

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::measure {
namespace {

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

std::optional<speed_of_light_figures> speed_of_light(const speed_of_light_inputs& in, double version_ms,
                                                     std::optional<double> reference_ms) {
  if (!positive(in.problem_bytes) || !positive(in.dram_bytes_per_s) || !positive(version_ms)) return std::nullopt;
  speed_of_light_figures f;
  f.problem_bytes = in.problem_bytes;
  f.dram_bytes_per_s = in.dram_bytes_per_s;
  f.dram_source = in.dram_source;
  f.memory_bound_ms = in.problem_bytes / in.dram_bytes_per_s * 1e3;
  f.bound_ms = f.memory_bound_ms;
  f.bound_by = "memory";
  if (in.flops && positive(*in.flops) && in.peak_flop_per_s && positive(*in.peak_flop_per_s)) {
    f.flops = in.flops;
    f.peak_flop_per_s = in.peak_flop_per_s;
    f.peak_source = in.peak_source;
    f.compute_bound_ms = *in.flops / *in.peak_flop_per_s * 1e3;
    if (*f.compute_bound_ms > f.bound_ms) {
      f.bound_ms = *f.compute_bound_ms;
      f.bound_by = "compute";
    }
  } else {
    f.note = "bytes only: " + (in.compute_note.empty() ? std::string("no FLOP count or peak") : in.compute_note);
  }
  f.percent_of_bound = f.bound_ms / version_ms * 100;
  if (reference_ms && positive(*reference_ms) && *reference_ms > f.bound_ms) {
    f.gap_closed_percent = (*reference_ms - version_ms) / (*reference_ms - f.bound_ms) * 100;
  }
  return f;
}

std::string speed_of_light_line(const speed_of_light_figures& f) {
  std::string line = fmt::format("at {:.1f} % of speed-of-light (bound {:.4g} ms, {}: ", f.percent_of_bound, f.bound_ms,
                                 f.bound_by);
  if (f.bound_by == "compute") {
    line += fmt::format("{} at {}, {}", format_si(*f.flops, "FLOP"), format_si(*f.peak_flop_per_s, "FLOP/s"), f.peak_source);
  } else {
    line += fmt::format("{} through DRAM at {}, {}", format_si(f.problem_bytes, "B"), format_si(f.dram_bytes_per_s, "B/s"),
                        f.dram_source);
  }
  line += ")";
  if (f.gap_closed_percent) line += fmt::format("; closed {:.1f} % of the gap from the reference to the bound", *f.gap_closed_percent);
  if (!f.note.empty()) line += "; " + f.note;
  return line;
}

}  // namespace kopt::measure
