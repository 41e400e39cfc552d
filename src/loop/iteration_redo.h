#pragma once
// Redoing the run's last iteration (`kopt loop KERNEL --run-dir D --iteration K`, K the last, as
// the Python toolkit's loop skill re-runs an iteration after fixing its version): the attempt
// that was there is kept, superseded, and the iteration runs again as attempt A + 1.

#include <cstdint>

#include "loop/step_context.h"

namespace kopt::loop {

// The attempt the next evaluation of iteration `k` is: 1 + its superseded attempts.
std::int64_t next_attempt(const run_manifest& m, std::int64_t k);

// Moves the run's last iteration aside: its folder is copied to iter_vK_attemptA/, its record
// (pointing there) joins the manifest's `superseded`, the best and the blocked strategies are
// as they were before it ran, the manifest is committed, and the memory marks its outcomes
// superseded. A call killed at any point leaves a run that goes on: before the commit, the
// copy is made again; after it, the iteration simply has not run yet.
void supersede_last_iteration(const step_context& ctx);

}  // namespace kopt::loop
