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
#include "loop/turns_comparison.h"

namespace kopt::loop {

// Why `r`'s strategy may not be measured ("blocked strategy reused: ..."), from the run's blocked
// list and the memory's; "" when it may (a version whose proposal named no strategy always may).
std::string blocked_strategy(const step_context& ctx, const version_record& r);

// `r` carries its snapshot, source hash, tags, fingerprint and parent, and `blocked` is what
// blocked_strategy said of it; this fills its outcome, reason, figures and shape checks, and the
// run's architecture and frozen problem hashes when they are still unknown. It does not use the
// memory (ctx.store), so it may run beside the thread that does. `what` names the version in
// messages ("iteration v2", "candidate 1 of iteration v2"). Throws kopt::error when the kernel
// file changed while it was measured.
void judge_version(const step_context& ctx, std::int64_t iteration, const std::filesystem::path& evidence_dir,
                   version_record& r, const std::string& what, const std::string& blocked);

// Version `r` as a comparison in turns holds it open: its snapshot, checked against the manifest
// (for Triton the snapshot is the code that runs), and a compiled version's library kept in
// `folder`, checked likewise. Throws kopt::error when either changed since kopt measured it.
turns_side held_open(const step_context& ctx, const version_record& r, const std::filesystem::path& folder,
                     const std::string& what);

// The version declared another problem than v0: rejected, and the run must stop.
bool declared_another_problem(const version_record& r);

// A strategy that was slower or failed is blocked for the rest of the run.
void block_if_failed(run_manifest& m, const version_record& r);

}  // namespace kopt::loop
