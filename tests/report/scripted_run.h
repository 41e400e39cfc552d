#pragma once
// A loop run for the report's tests, made by kopt's own loop on the CPU (tests/loop's scripted
// GPU: scripted timings, real H200 ncu exports, kopt's own analysis, a real memory and a real
// agent process): v0 the naive softmax, v1 a faster version (positive), v2 a version that fails
// validation (rejected, never timed), v3 a slower one than the best (negative). Made when a test
// asks for it, so it is always what the loop writes today.

#include <filesystem>

namespace kopt::report::testing {

// Runs the loop in `work` (kernel, reference, agent and versions are written there) and returns the run
// folder (work/optimize_runs/run_...). The memory is work/memory.db.
std::filesystem::path write_scripted_run(const std::filesystem::path& work);

// The fixture: a scripted run made once per test process (its memory removed); tests that change
// it copy it first.
std::filesystem::path fixture_run_dir();

}  // namespace kopt::report::testing
