#pragma once
// A loop's settings as its run folder froze them (kernel, reference, dimensions, tolerances,
// extra shapes, sampling): what `kopt loop --finish --run-dir RUN` works with when only the
// folder is named.

#include <filesystem>

#include "loop/loop_settings.h"

namespace kopt::loop {

// Throws kopt::error (one line) when the folder holds no run (no run_manifest.json), or as
// read_run_manifest does.
loop_settings settings_of_run(const std::filesystem::path& run_dir);

}  // namespace kopt::loop
