#pragma once
// A Python reference's measuring process at its gate (`kopt harness --gated --python ...`). Its
// runner loads torch meanwhile (prestarted_runner.h). The parent may ask, before the go line,
// that the runner make its CUDA context now: the parent does so at the start of a bench, so that
// the runner's context is made while the kernel's process makes its own, instead of after the
// kernel's process has ended. Making a context is GPU work: it is done only once the runner has
// loaded torch and while this process holds the GPU's lock shared (as the kernel's process does
// for its own, harness/context_ahead.h), which no one holds while measuring. The parent hears
// the outcome on the gate's socket before the lock is let go, so that when it takes the lock
// to time the kernel it knows whether the runner holds an idle context on the GPU.

#include <chrono>
#include <filesystem>

namespace kopt::harness {

// What the parent says and hears at the gate.
inline constexpr const char* context_request = "context";
inline constexpr const char* context_made_answer = "context made";  // else "context not made: WHY"
// What this process and its runner say (python/kopt_runner.py, --gated): the runner says it is
// ready once torch is loaded, and is asked for its context with a one-word command.
inline constexpr const char* runner_ready_line = "ready";
inline constexpr const char* runner_context_request = R"(["context"])";

// How long the runner may take to make its context before it is ended (the reference then
// starts a runner of its own).
inline constexpr std::chrono::seconds runner_context_limit{30};

// Blocks until the parent's go line (true) or the end of standard input (false: the parent
// dropped this process, or died), making the runner's context when asked meanwhile. Standard
// input is the gate's socket; `gpu_lock` is the GPU's lock file (empty: no context is made,
// and a request is answered so).
bool await_go_line(const std::filesystem::path& gpu_lock);

}  // namespace kopt::harness
