#pragma once
// A loop's settings as its run folder froze them (kernel, reference, dimensions, tolerances,
// extra shapes, sampling): what `kopt loop --finish --run-dir RUN` works with when only the
// folder is named.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loop/loop_settings.h"

namespace kopt::loop {

// How a run's manifest freezes the tolerances ("atol=1e-05 rtol=default"; "default by output
// type" when neither is given) and, in its `settings` object, the sampling, the seed, the GPU,
// the capture's kernel filter and the build's -D defines, pointer size and nvcc: written here
// beside settings_of_run and frozen_defines, which read them back.
std::string frozen_tolerances(const loop_settings& s);
nlohmann::json frozen_settings(const loop_settings& s);

struct run_manifest;

// The -D defines (NAME[=VALUE]) the run's versions were built with.
std::vector<std::string> frozen_defines(const run_manifest& m);

// Throws kopt::error (one line) when the folder holds no run (no run_manifest.json), or as
// read_run_manifest does.
loop_settings settings_of_run(const std::filesystem::path& run_dir);

}  // namespace kopt::loop
