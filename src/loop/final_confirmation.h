#pragma once
// The final confirmation of a run: the figures kopt announces are never the ones recorded
// while the iterations ran (an agent between iterations can write the run folder), but ones
// measured again at the end. The best version by the loop's ranking (the bests, newest first:
// each was faster than the one before it) is re-judged from its snapshot in fresh measuring
// processes against the run's reference, run once under each compute-sanitizer tool (memcheck,
// initcheck, racecheck; any finding fails it) and compared in turns with the baseline once more
// (it must still be faster). A version that fails is recorded as rejected and its strategy
// blocked, as the loop records a rejected version, and the next best is confirmed; the
// baseline alone is not a best. The answer is confirmation.json (confirmation_record.h).
//
// It runs at a loop's natural end and on `kopt loop --finish --run-dir RUN`.

#include <vector>

#include "loop/confirmation_record.h"
#include "loop/loop_services.h"
#include "loop/loop_settings.h"
#include "loop/step_outcome.h"

namespace kopt::loop {

// The tools every confirmed version runs under, in order.
inline const std::vector<std::string> confirmation_sanitizers = {"memcheck", "initcheck", "racecheck"};

struct confirmed_run {
  final_confirmation confirmation;
  run_manifest manifest;   // as committed after the confirmation (rejections, the best)
  std::string kernel_file;  // what became of the kernel file (best_write_back.h); "" when nothing
  bool survived() const { return confirmation.verdict != confirmation_verdict::none_survived; }
};

// The versions to confirm, in order: the best, then the best it displaced, and so on down to
// (without) the baseline.
std::vector<std::int64_t> confirmation_ranking(const run_manifest& m);

// Opens the run in settings.run_dir (its lock, its frozen problem checked as a continuing call
// checks it), confirms, commits the manifest and final_summary.md, then writes
// confirmation.json. While a version is measured the kernel file holds it (its local headers
// resolve as the kernel's do); it holds what it held before afterwards. Throws kopt::error as
// run_loop_step does, and when compute-sanitizer is missing.
confirmed_run finish_run(const loop_settings& settings, const loop_services& services,
                         const step_progress& progress = {});

// Whether a call's last step ended the run (its last iteration, the problem unchanged): the
// point where kopt loop and the MCP loop tool confirm on their own.
bool ends_the_run(const step_outcome& step);

}  // namespace kopt::loop
