#pragma once
// What the integrity suites (one per backend) share: running the real kopt binary on a cheating
// kernel against an honest reference, and the verdicts EXPLOITS.md asks for. A failing class
// must end with exit code 1, a status other than "ok", and a first stderr line naming the
// class; a flagged class must be timed honestly and carry a warning.

#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kopt::integrity {

struct bench_outcome {
  int exit_code = -1;
  std::string stderr_first_line;
  std::string stderr_text;
  nlohmann::json result;  // the --json-out document; null when kopt wrote none (or not JSON)
};

// `kopt bench DATA/KERNEL --ref DATA/REFERENCE --N=1000003 --max-seconds 1 --json-out FILE
// [extra...]`, with the verdict printed as evidence. N is odd and not a multiple of any block
// size, so tails and rounding are exercised.
bench_outcome bench(const std::filesystem::path& data, const std::string& kernel_file, const std::string& reference_file,
                    const std::vector<std::string>& extra_args = {});

// A value by JSON pointer ("/kernel/median_ms"); a missing key throws.
const nlohmann::json& field(const nlohmann::json& document, const std::string& pointer);

std::string status_of(const bench_outcome& o);

// A fail verdict: exit code 1, the status, and (when phrases are given) a first stderr line
// that holds one of them; the document must be kopt's own.
void expect_failure(const bench_outcome& o, const std::string& status, std::initializer_list<std::string_view> phrases);

// A flag verdict: the run succeeds, the kernel was timed honestly (a median far below the
// reference's means work escaped the timer), and a warning starts with `flag`.
void expect_flagged(const bench_outcome& o, std::string_view flag);

// For cheats a judge can leave nothing to exploit (fresh inputs and poisoned outputs every
// call): either caught naming the class, or ok with the work timed honestly.
void expect_caught_or_forced_honest(const bench_outcome& o, std::initializer_list<std::string_view> phrases);

}  // namespace kopt::integrity
