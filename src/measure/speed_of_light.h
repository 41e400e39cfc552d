#pragma once
// How far a version is from what the hardware allows for its problem: the bound is the longer
// of moving the problem's minimum bytes at the DRAM bandwidth and doing its FLOPs at the peak
// for its data type; the version's percent of speed-of-light is bound / its time, and the share
// of the gap closed is how much of the way from the reference's time to the bound it went.
// Pure arithmetic: where each figure comes from is the caller's, and is carried along in words
// so that the answer says what it rests on.

#include <optional>
#include <string>

#include "core/document.h"

namespace kopt::measure {

struct speed_of_light_inputs {
  double problem_bytes = 0;            // [bytes] through DRAM: inputs, and outputs the L2 cannot hold
  double dram_bytes_per_s = 0;         // [bytes/s]
  std::string dram_source;             // "measured device-to-device copy", ...
  std::optional<double> flops;         // [FLOP] the problem's, when the reference states them
  std::optional<double> peak_flop_per_s;  // [FLOP/s] for the problem's data type
  std::string peak_source;             // "FP32 peak of the version's profile", ...
  std::string compute_note;            // why there is no compute bound, when there is none
};

struct speed_of_light_figures {
  double bound_ms = 0;                 // [ms] max(memory_bound_ms, compute_bound_ms)
  std::string bound_by;                // "memory" or "compute"
  double memory_bound_ms = 0;
  std::optional<double> compute_bound_ms;
  double problem_bytes = 0;
  double dram_bytes_per_s = 0;
  std::string dram_source;
  std::optional<double> flops;
  std::optional<double> peak_flop_per_s;
  std::string peak_source;
  double percent_of_bound = 0;         // [%] bound_ms / the version's time
  // [%] (reference - version) / (reference - bound); none without a reference time, or when the
  // reference is at the bound already.
  std::optional<double> gap_closed_percent;
  std::string note;                    // "bytes only: ...", when the bound has no compute side
};
BOOST_DESCRIBE_STRUCT(speed_of_light_figures, (),
                      (bound_ms, bound_by, memory_bound_ms, compute_bound_ms, problem_bytes, dram_bytes_per_s,
                       dram_source, flops, peak_flop_per_s, peak_source, percent_of_bound, gap_closed_percent, note))

// None when the inputs cannot give a bound (no bytes, no bandwidth, no time).
std::optional<speed_of_light_figures> speed_of_light(const speed_of_light_inputs& in, double version_ms,
                                                     std::optional<double> reference_ms);

// "at 71.3 % of speed-of-light (bound 0.120 ms, memory: 268 MB at 4.02 TB/s, measured ...);
// closed 64.0 % of the gap from the reference": the final answer's line.
std::string speed_of_light_line(const speed_of_light_figures& f);

}  // namespace kopt::measure
