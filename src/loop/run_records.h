#pragma once
// What a run's record holds, as kopt keeps it in memory: the frozen problem, each iteration
// and candidate, the best and what is blocked. run_manifest.h writes and reads it as
// run_manifest.json; run_manifest_fields.h checks every field of what it reads.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "core/json.h"
#include "pipeline/comparison_summary.h"

namespace kopt::loop {

// A run's iterations after v0, at most (--max-iterations): more is a typo, not a plan.
inline constexpr std::int64_t most_iterations = 10000;

// What defines the problem, fixed at v0 and checked at every iteration: the agent cannot
// move the goalposts.
struct frozen_problem {
  std::string reference_sha256;         // the reference file's content ("" without a reference)
  std::string problem_sha256;           // buffers, roles, sizes, value ranges and scalars as planned
  std::string tolerances;               // "--atol/--rtol as given" ("default by dtype" when not)
  std::vector<std::string> dims;        // the dimension flags, as given
  std::vector<std::string> check_dims;  // --check-dims: each extra shape's dimension flags
  std::vector<std::string> check_problem_sha256;  // the problem at each of them ("" until first planned)
};

// Where a version stands in its run: pending until evaluated, the run's baseline, or the
// comparison rule's verdict against its parent (measure/outcome.h), rejected included (a version
// that failed, reused a blocked strategy or declared another problem before any comparison
// counted).
enum class version_outcome { pending, baseline, positive, negative, neutral, inconclusive, rejected };
BOOST_DESCRIBE_ENUM(version_outcome, pending, baseline, positive, negative, neutral, inconclusive, rejected)

// A version's verdict at one extra validation shape.
struct shape_check {
  std::string dims;    // the shape's dimension flags
  std::string status;  // passed, failed, not run (the version failed before)
  std::string reason;  // the judge's first line when failed
};

// The values kopt tune chose for a version that declares tune(...) parameters (kopt loop --tune):
// its snapshot has them written in (#ifndef X / #define X V / #endif before its text), and the
// version was judged, timed, compared and profiled with them.
struct tuned_values {
  std::vector<std::string> defines;  // "BLOCK=128", in the order the parameters are declared
  std::string tune_result;           // relative to the run folder: iter_vK/tune_<time>/tune_result.json
  std::int64_t measured = 0;         // configurations measured or read from the cache
  std::int64_t allowed = 0;          // configurations the restrictions allowed
  std::string written_sha256;        // the kernel file as the agent wrote it (without the values)
};

// "BLOCK=128 VEC=4 (12 of 39 allowed configurations measured; iter_v1/tune_.../tune_result.json)".
std::string tuned_text(const tuned_values& tuned);

// A version's comparison with its parent, as the manifest keeps it; for one in turns, also the
// file in the version's folder with every round and sample, and the GPU it ran on (a round on
// several GPUs compares each candidate where it ran).
struct version_comparison : pipeline::comparison_summary {
  std::optional<std::string> file;
  std::optional<int> gpu;
};
BOOST_DESCRIBE_STRUCT(version_comparison, (pipeline::comparison_summary), (file, gpu))

// One evaluated version: a single iteration's, or one candidate of a round.
struct version_record {
  std::string snapshot;  // relative to the run folder: iter_vK/<stem>_vK.<ext>
  std::string source_sha256;
  // Of the library its bench measured, kept as <folder>/kernel_library.so for comparisons in
  // turns with later versions ("" when none was kept: a Triton kernel, a failed version).
  std::string library_sha256;
  std::optional<std::int64_t> parent;  // the version it was compared with (the best when it ran)
  std::vector<std::string> tags;       // normalized; v0: ["baseline"]
  std::string fingerprint;             // "" when no tags were given
  version_outcome outcome = version_outcome::pending;
  std::string reason;  // one line
  // Rejected because it declares other buffers, sizes, roles or value ranges than v0: the agent
  // must go back to v0's problem, not try another strategy.
  bool problem_changed = false;
  // Passed the judge. An eligible baseline or positive version also has its full profile (one
  // whose profile failed is rejected); a slower one is not profiled.
  bool eligible = false;
  std::optional<double> median_ms;  // kernel GPU time, cold
  json median_ci95_ms = nullptr;
  std::optional<double> reference_median_ms;
  std::optional<double> speedup_vs_reference;
  std::string bottleneck;  // the diagnosed class of the slowest launch ("" without a profile)
  bool at_hardware_limit = false;
  std::optional<version_comparison> comparison;  // none before (or without) a comparison
  std::vector<shape_check> checks;  // one per --check-dims shape, in order
  // [s] of wall time per step that ran: bench, check_dims, profile, analyze, compare (where an
  // iteration's time went; {} in manifests written before it was kept).
  json step_seconds = json::object();
  std::string finished_at;            // "" for a candidate not evaluated yet
  std::optional<tuned_values> tuned;  // none: not tuned (no --tune, or no tune parameters)

  // The kernel file's content when this version was read from it: the snapshot's, unless tuned
  // values were written into the snapshot.
  const std::string& written_sha256() const { return tuned ? tuned->written_sha256 : source_sha256; }
};

// One candidate of a round (--candidates K): its evidence lives in iter_vK/cand_J/.
struct candidate_record : version_record {
  int candidate = 0;  // J, as the agent numbered it (cand_J)
};

// One iteration: a single version, or a round of candidates, whose chosen candidate's
// figures the iteration's own fields repeat (and whose files are copied to iter_vK/).
struct iteration_record : version_record {
  std::int64_t iteration = 0;
  // 1, or 2, 3, ... when the iteration was redone (`--iteration K` for the run's last K): the
  // earlier attempts are the manifest's `superseded` records, their folders iter_vK_attemptA/.
  std::int64_t attempt = 1;
  // The file this version was read from when it was not the run's kernel file (a new file per
  // version, as the Python toolkit's loop skill writes them); "" for the run's own.
  std::string kernel_file;
  std::vector<candidate_record> candidates;  // empty for a single version
  std::optional<int> chosen_candidate;       // the candidate the fields above are: the new best, else
                                             // the fastest that passed, else the first

  const candidate_record* find_candidate(int candidate) const;
};

struct run_manifest {
  std::string run_id;  // the run folder's name
  std::string kopt_version;
  std::string created_at;
  std::string updated_at;
  std::string kernel;     // as given (absolute)
  std::string reference;  // absolute; "" without one
  std::string backend;
  std::string arch;
  std::string op;  // --op, else the kernel's file stem
  std::string op_family;
  std::int64_t max_iterations = 0;
  std::string memory_db;
  frozen_problem frozen;
  json settings = json::object();            // warm-up, repeat, seed, tolerances, gpu, ...
  std::vector<iteration_record> iterations;  // in order, v0 first
  std::optional<std::int64_t> best;          // the best eligible iteration
  std::vector<std::string> blocked;          // fingerprints blocked for the rest of the run
  // A round of candidates being evaluated: its candidates are listed (snapshotted) before the
  // first is measured; each counts once its outcome is here. Moves to `iterations` when the
  // last one is done.
  std::optional<iteration_record> open_round;
  // Attempts of redone iterations, oldest first, as they were when redone (their files moved to
  // iter_vK_attemptA/): kept as evidence, no longer part of the run's line of versions.
  std::vector<iteration_record> superseded;

  const iteration_record* find(std::int64_t iteration) const;
  // The tags of the strategy with this fingerprint, as an iteration of the run recorded them;
  // none when no iteration tried it.
  const std::vector<std::string>* tags_of(const std::string& fingerprint) const;
};

}  // namespace kopt::loop
