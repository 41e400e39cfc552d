#include "harness/context_ahead.h"

#include <chrono>

#include "core/error.h"
#include "core/file_lock.h"
#include "harness/gpu_context.h"

namespace kopt::harness {

context_ahead make_context_ahead(const std::filesystem::path& gpu_lock) {
  context_ahead ahead;
  const std::unique_ptr<file_lock> lock = file_lock::open_existing(gpu_lock);
  if (!lock) {
    ahead.why_not = "the GPU's lock file could not be opened";
    return ahead;
  }
  // Shared: the reference's runner may be making its own context ahead at the same moment.
  if (!lock->try_lock_shared()) {
    ahead.why_not = "another kopt was measuring on the GPU";
    return ahead;
  }
  const auto started = std::chrono::steady_clock::now();
  try {
    open_gpu_context();  // the primary context stays retained for the run
  } catch (const error& e) {
    ahead.why_not = e.headline();
    return ahead;
  }
  ahead.made = true;
  ahead.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return ahead;  // the lock is released here, before the gate
}

void note_context_ahead(child_report& report, const context_ahead& ahead) {
  if (ahead.made) {
    report.phases_s.emplace_back("gpu_context_made_ahead", ahead.seconds);
  } else {
    report.context_not_made_ahead = ahead.why_not;
  }
}

}  // namespace kopt::harness
