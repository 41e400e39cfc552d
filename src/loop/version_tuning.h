#pragma once
// kopt loop --tune: a version that declares tune(...) parameters is tuned before it is judged
// (kopt tune, docs/tune.md: each configuration built, judged against the run's reference and
// timed, the fastest two compared in turns), so that its strategy is judged at its best
// configuration. The tune folder lies in the iteration's folder; the version the loop judges is
// the one with the winning values written in, measured with them as -D values.

#include <filesystem>
#include <optional>
#include <string>

#include "loop/run_records.h"
#include "loop/step_context.h"

namespace kopt::loop {

struct version_tuning {
  std::optional<tuned_values> tuned;  // none: --tune not given, or the version declares no parameters
  std::string tuned_source;           // the version with the winning values written in (when tuned)
  std::string failure;                // why the version cannot be judged: no configuration passed, say
};

// `source` is the version as the agent wrote it (the kernel file's text).
version_tuning tune_version(const step_context& ctx, const std::filesystem::path& iteration_dir,
                            const std::string& source);

// The settings a tuned version is measured with: its values as -D, as its snapshot has them; a
// Triton module (the run's `backend`) has no build to pass them to, so it is measured as its
// snapshot, which pins them.
loop_settings with_tuned_values(const loop_settings& settings, const std::optional<tuned_values>& tuned,
                                const std::filesystem::path& snapshot, const std::string& backend);

}  // namespace kopt::loop
