#pragma once
// Starting or resuming a run: the run folder and its manifest, the lock that keeps two loops
// out of one run, and the checks that the problem frozen at v0 has not moved.

#include <filesystem>
#include <memory>

#include "core/file_lock.h"
#include "kernel/backend.h"
#include "loop/loop_settings.h"
#include "loop/run_manifest.h"

namespace kopt::loop {

struct opened_run {
  std::filesystem::path dir;
  run_manifest manifest;
  std::unique_ptr<file_lock> lock;   // held while the step runs
  bool fresh = false;                // no iteration recorded yet
};

// A new run (no --run-dir, or --run-dir with --new-run) or the one in --run-dir.
// Throws kopt::error when --run-dir holds no run and --new-run is not given (a mistyped or
// misplaced folder must not silently start over at v0), when --new-run names a folder that
// holds one, when the run is another kernel's, is in use by another loop, or its frozen
// reference, dimensions or tolerances differ from the settings.
opened_run open_run(const loop_settings& settings);

inline constexpr const char* loop_lock_name = ".kopt-loop.lock";
inline constexpr const char* preflight_check_json = "preflight_check.json";
inline constexpr const char* preflight_check_md = "preflight_check.md";

// Whether `dir` holds only what `kopt loop --preflight-only` writes (its two reports, the lock).
bool holds_preflight_only(const std::filesystem::path& dir);

// Throws kopt::error when the loop's kernel file is not there.
void require_kernel_file(const loop_settings& s);

// The backend of the loop's kernel file: --backend's, else what its name and text say.
kernel::backend kernel_file_backend(const loop_settings& s);

// The folder a run that is not resumed starts in (and `--preflight-only` writes to): --run-dir,
// made if needed, or a new run folder beside the kernel.
std::filesystem::path make_run_folder(const loop_settings& s);

// Keeps other loops out of `dir` while the returned lock lives; throws kopt::error when one is
// working there.
std::unique_ptr<file_lock> lock_run_folder(const std::filesystem::path& dir);

// The dimension flags as the user would type them again ("--rows=4096", "--dim seed=3").
std::vector<std::string> dimension_flags(const pipeline::bench_target& target);

}  // namespace kopt::loop
