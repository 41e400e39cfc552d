#pragma once
// Judging one version for the run, the same for a single iteration and for each candidate of a
// round: a strategy blocked in this scope is rejected without measuring; otherwise what is now
// in the kernel file is evaluated (version_evaluation.h) into the version's evidence folder,
// the problem it declares is held against the frozen one (at the benchmarked shape and at each
// extra shape), and the outcome is decided against the version's parent (the best when it ran).

#include <cstdint>
#include <filesystem>
#include <string>

#include "loop/run_manifest.h"
#include "loop/step_context.h"

namespace kopt::loop {

// `r` carries its snapshot, source hash, tags, fingerprint and parent; this fills its outcome,
// reason, figures and shape checks, and the run's architecture and frozen problem hashes when
// they are still unknown. `what` names the version in messages ("iteration v2", "candidate 1 of
// iteration v2"). Throws kopt::error when the kernel file changed while it was measured.
void judge_version(const step_context& ctx, std::int64_t iteration, const std::filesystem::path& evidence_dir,
                   version_record& r, const std::string& what);

// The version declared another problem than v0: rejected, and the run must stop.
bool declared_another_problem(const version_record& r);

// A strategy that was slower or failed is blocked for the rest of the run.
void block_if_failed(run_manifest& m, const version_record& r);

}  // namespace kopt::loop
