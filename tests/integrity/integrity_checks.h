#pragma once
// What the integrity suites (one per backend) share: running the real kopt binary on a cheating
// kernel against an honest reference, and the verdicts EXPLOITS.md asks for. A failing class
// must end with exit code 1, a status other than "ok", and a first stderr line naming the
// class; a flagged class must be timed honestly and carry a warning.

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

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
                    const std::vector<std::string>& extra_args = {},
                    const std::map<std::string, std::string>& env = {});

// The write sandbox's probe (docs/integrity.md, "What the code under test may write"): the
// kernels `sandbox_writes.cu` / `.py` try, on their first call, to write `kopt-probe-TOKEN` into
// /tmp, /dev/shm and `run_dir` (a folder standing for a loop's run folder), and into their own
// temporary folder, which they must be able to (they write no output when they cannot).
struct write_probe {
  testing::scratch_dir run_dir;
  std::string token;

  write_probe();
  // The variables that tell the kernel where to write.
  std::map<std::string, std::string> env() const;
  // Every place it tried outside its run: none may hold the file afterwards.
  std::vector<std::filesystem::path> refused_targets() const;
};

// A run's `sandbox` field says Landlock was applied, with no folder or file outside the run's
// own (no /tmp, /dev/shm or /dev as a folder); and the probe's files are nowhere. A machine
// without Landlock fails here, naming why: the GPU machine must have it.
void expect_sandboxed(const nlohmann::json& sandbox, const write_probe& probe);

// `kopt profile KERNEL --ref REFERENCE --N=1000003 --out RUN/profile --json` under ncu, with
// `env`: its exit code, stderr and profile.json (null when it printed none).
bench_outcome profile_under_ncu(const std::filesystem::path& data, const std::string& kernel_file,
                                const std::string& reference_file, const std::filesystem::path& out,
                                const std::map<std::string, std::string>& env);

// Where the write probe's kernel runs: a bench, bench's profile mode, or kopt profile under ncu.
enum class probe_run { bench, profile_mode, under_ncu };

// The write probe's kernel (`sandbox_writes.cu` / `.py`, right, run against `reference_file`)
// run where `where` says: the run succeeds (under ncu with a kernel captured) and every write
// it tried outside its run was refused (expect_sandboxed).
void expect_writes_outside_refused(const std::filesystem::path& data, const std::string& kernel_file,
                                   const std::string& reference_file, probe_run where);

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

// For super-batching (class 24): caught naming one of `phrases`, or ok with a kernel median of
// at least `in_flight_ms` (the work the cheat leaves in flight, which the timer must cover) and,
// when `flags` are given, a warning that starts with one of them.
void expect_in_flight_caught_or_timed(const bench_outcome& o, std::initializer_list<std::string_view> phrases,
                                      double in_flight_ms, std::initializer_list<std::string_view> flags = {});

}  // namespace kopt::integrity
