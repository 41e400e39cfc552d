#pragma once
// What one kopt profile run records in profile.json (schema kopt.profile/v1) and prints: the
// ncu command, its version, the files written and the kernels the report holds.

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/phase_clock.h"
#include "profile/ncu_command.h"
#include "profile/raw_csv_kernels.h"

namespace kopt::profile {

struct profile_record {
  std::string ncu_path;
  std::string ncu_version;                 // "2025.3.1.0"
  std::vector<std::string> ncu_argv;       // the capture as run, up to the profiled program
  std::string ncu_command;                 // the whole command line as run
  std::string by_hand_command;             // the same capture through `kopt bench --profile-mode`
  ncu_capture_options capture;
  int profile_calls = 1;
  int warmup = 0;
  std::vector<std::string> files;          // names in the output folder
  std::string source_problem;              // why ncu_source.csv is missing ("" when written)
  std::vector<profiled_kernel> kernels;
  double capture_seconds = 0;              // [s] wall time of the ncu run
  double wall_seconds = 0;                 // [s] wall time of kopt profile up to the export
  phase_seconds phases_s;                  // [s] where that time went: preparation, capture, export, reading
  std::optional<std::string> sandbox;      // where the profiled process could write, or why it was not restricted
};

// The body of profile.json, schema key first; the caller adds the build and GPU provenance.
json profile_document(const profile_record& record);

// "[0] softmax_naive_kernel(...)  grid (32, 1, 1)  block (128, 1, 1)  1234.6 us  SM 12.3 %  memory 45.6 %"
std::string kernel_summary_line(const profiled_kernel& kernel);

}  // namespace kopt::profile
