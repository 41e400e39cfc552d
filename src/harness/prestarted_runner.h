#pragma once
// The Python runner of a reference's measuring process, started before the job is known
// (`kopt harness --gated`): Python and torch load while the parent builds and runs the kernel's
// process, and the runner waits at its gate (core/gated_process.h) until the reference is
// run. One per process: the harness runs one job.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "core/gated_process.h"

namespace kopt::harness {

// Starts `PYTHON RUNNER --gated torch`.
void prestart_python_runner(const std::string& python, const std::filesystem::path& runner);

// The prestarted runner when it was started for this Python and runner and is still waiting;
// else null (the caller starts one), and a runner that does not serve is ended.
std::unique_ptr<gated_process> take_prestarted_runner(const std::string& python, const std::filesystem::path& runner);

// The prestarted runner while it is held (not taken yet), to talk with at its gate; else null.
gated_process* held_prestarted_runner();

// Ends a prestarted runner nobody took.
void drop_prestarted_runner();

}  // namespace kopt::harness
