#pragma once
// `kopt loop --agent CMD`: up to --max-iterations iterations without a person in between.
// After each iteration kopt runs CMD (split into words, never through a shell) with the run's
// paths in its environment; CMD writes the next version of the kernel and fills the
// proposal's strategy tags; kopt evaluates it; and so on until a stopping rule holds.
//
// CMD's environment (besides kopt's own):
//   KOPT_RUN_DIR        the run folder
//   KOPT_ITERATION_DIR  the folder of the iteration just evaluated
//   KOPT_ITERATION      its number; KOPT_NEXT_ITERATION the one CMD writes
//   KOPT_KERNEL         the kernel file to overwrite with the next version
//   KOPT_BEST_VERSION   the best version's snapshot (build the next version from it)
//   KOPT_ANALYSIS       the best version's analysis.md
//   KOPT_PROPOSAL       the proposal to fill (its "## Strategy tags" list names the strategy)
//   KOPT_REFERENCE      the reference file ("" without one)
//   KOPT_CANDIDATES     how many versions CMD may write for the next iteration (--candidates K)
//   KOPT_CANDIDATES_DIR with K > 1: where CMD writes them (candidate_handover.h) instead of the
//                       kernel file and KOPT_PROPOSAL's tags; "" with K = 1
//   KOPT_AGENT_DIR      CMD's own work folder (agent/ in the run folder), kept across iterations
// With --agent-sandbox, CMD may write only what agent_sandbox.h lists.

#include <chrono>
#include <optional>
#include <string>

#include "loop/loop_step.h"

namespace kopt::loop {

struct agent_settings {
  std::string command;
  std::chrono::seconds timeout{1800};
  int patience = 3;                        // stop after this many iterations without a new best
  std::optional<double> target_speedup;    // stop when the best is this much faster than the reference
  int candidates = 1;                      // versions CMD may write per iteration (a round when > 1)
  bool sandbox = false;                    // --agent-sandbox: CMD writes only what agent_sandbox.h allows
};

struct agent_loop_outcome {
  step_outcome last;                       // the last step (its manifest is the run's)
  std::string stop_reason;                 // why the loop ended, one line
  bool failed = false;                     // the agent failed, hung or wrote nothing, or the problem moved
  record_check run_check;                  // the run folder held against the ledger when the loop began
  std::vector<std::string> notices;        // the first step's (toolkit_memory_offer.h)
};

// Throws kopt::error as run_loop_step does, for a command that cannot be split, and for
// --agent-sandbox where no write sandbox can be applied.
agent_loop_outcome run_agent_loop(loop_settings settings, const agent_settings& agent, const loop_services& services,
                                  const step_progress& progress = {});

// Why a run should stop after `last`, or "" to go on (the stopping rules without the agent).
std::string stopping_reason(const step_outcome& last, const agent_settings& agent);

}  // namespace kopt::loop
