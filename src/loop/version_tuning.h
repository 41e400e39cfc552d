#pragma once
// kopt loop --tune: a version that declares tune(...) parameters is tuned before it is judged
// (kopt tune, docs/tune.md: each configuration built, judged against the run's reference and
// timed, the fastest two compared in turns), so that its strategy is judged at its best
// configuration. The tune folder lies in the iteration's folder; the version the loop judges is
// the one with the winning values written in, measured with them (tuned_measurement).

#include <filesystem>
#include <optional>
#include <string>

#include "loop/run_records.h"
#include "loop/step_context.h"
#include "loop/work_file.h"

namespace kopt::loop {

struct version_tuning {
  std::optional<tuned_values> tuned;  // none: --tune not given, or the version declares no parameters
  std::string tuned_source;           // the version with the winning values written in (when tuned)
  std::string failure;                // why the version cannot be judged: no configuration passed, say
};

// `source` is the version as the agent wrote it (the kernel file's text).
version_tuning tune_version(const step_context& ctx, const std::filesystem::path& iteration_dir,
                            const std::string& source);

// Whether a version is measured from its snapshot's text (a copy beside the kernel) rather than
// from the file the agent wrote: a tuned Triton module, whose values have no build to go to.
bool measured_from_its_snapshot(const std::optional<tuned_values>& tuned, const std::string& backend);

// The settings a version is measured with, for as long as this lives. A tuned CUDA or CUTLASS
// version gets its values as -D, as its snapshot has them. A tuned Triton module has no build to
// pass them to: it is measured from its snapshot's text (which pins them) in a work file beside
// the kernel (`.<stem>.kopt-tuned.py`, work_file.h), where it imports its siblings as the kernel
// does. An untuned version is measured as written.
class tuned_measurement {
 public:
  tuned_measurement(const loop_settings& settings, const std::optional<tuned_values>& tuned,
                    const std::string& snapshot_text, const std::string& backend);

  const loop_settings& settings() const { return m_settings; }

 private:
  loop_settings m_settings;
  std::optional<work_file> m_copy;  // a tuned Triton module's
};

}  // namespace kopt::loop
