#pragma once
// A GPU for the loop's tests: the loop's services with every measurement scripted. Each
// version states its speed in its own source ("// speed: 0.8" = 80 % of the baseline's time),
// bench turns that into timing samples with a little deterministic jitter ("// fails validation"
// fails the judge; "// sanitizer finds: racecheck" fails a bench under that compute-sanitizer
// tool and no other; "// prints: TEXT" is what its process printed; "// fails at --cols=1000" fails it at a shape with that dimension, as a
// --check-dims validation finds; a validation-only bench times nothing), profile publishes
// real H200 ncu exports (tests/data/ncu/h200), and analysis is kopt's own; comparisons in
// turns run kopt's own rounds on blocks at the two versions' speeds, with a drift both share.
// Planning is real: the version's source is parsed as bench would.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loop/loop_step.h"

namespace kopt::loop::testing {

struct scripted_gpu {
  double baseline_ms = 0.1;               // the time of "// speed: 1"
  double reference_ms = 0.12;
  // The physical floor a timed bench reports: softmax 4096 x 1024 in float32 read and written,
  // the H200's DRAM peak, and what a copy reached (none: it could not be measured).
  std::uint64_t problem_bytes = 2ull * 4096 * 1024 * 4;
  double peak_dram_bytes_per_s = 4.8e12;
  std::optional<double> copy_bytes_per_s = 4.0e12;
  std::string profile_fixture = "softmax_naive";  // tests/data/ncu/h200/<name>_{raw,details,source}.csv
  std::map<std::string, std::string> fixture_by_marker;  // a source holding the marker gets that fixture
  int bench_calls = 0;                                   // every bench, validation-only ones included
  std::vector<std::vector<std::string>> bench_defines;   // each bench's -D values, in order
  std::vector<std::filesystem::path> bench_kernels;      // each bench's kernel file, in order
  int validation_only_calls = 0;
  int fresh_reference_calls = 0;                         // benches told to time the reference now (no cache)
  int sanitized_calls = 0;                               // benches with a compute-sanitizer pass
  std::vector<std::string> sanitized_tools;              // their tools, in order
  int profile_calls = 0;
  int compare_calls = 0;  // comparisons in turns
  // Thrown from profile when set (a kill in the middle of an iteration).
  bool die_in_profile = false;
  // Thrown from profile of a source holding this marker, when not empty.
  std::string die_in_profile_of;

  loop_services services();
};

// A softmax kernel (examples/softmax_naive.cu) with a speed line and an optional extra.
std::string softmax_version(double speed, const std::string& extra = "");

// What an agent does between two steps: `source` written into `kernel` as the next version, and
// `tags` named in the proposal of the last iteration of the run in `run_dir` (none yet: empty).
void hand_over_version(const std::filesystem::path& kernel, const std::filesystem::path& run_dir,
                       const std::string& source, const std::vector<std::string>& tags);

}  // namespace kopt::loop::testing
