#include "harness/measuring_process.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/measuring_writes.h"
#include "core/result_seal.h"
#include "harness/bench_job.h"
#include "harness/block_channel.h"
#include "harness/context_ahead.h"
#include "harness/kernel_run.h"
#include "harness/prestarted_runner.h"
#include "harness/reference_gate.h"
#include "harness/reference_run.h"

namespace kopt::harness {
namespace {

namespace fs = std::filesystem;

// Where the kernel's measuring process writes besides what every one does (measuring_writes.h):
// its result's folder (beside the job) and the outputs it keeps for the verdict.
std::vector<fs::path> own_folders(const bench_job& job, const fs::path& result) {
  std::vector<fs::path> own = {fs::absolute(result).parent_path()};
  if (!evidence_dir_of(job).empty()) own.emplace_back(evidence_dir_of(job));
  return own;
}

// A job run by a process started ahead must need no folder beyond those its writes were
// restricted to (the parent starts it for the same folders; this is the check that it did).
void require_started_for(const std::vector<fs::path>& needed, const std::vector<fs::path>& restricted_to) {
  for (const fs::path& folder : needed) {
    const fs::path wanted = fs::absolute(folder).lexically_normal();
    bool covered = false;
    for (const fs::path& allowed : restricted_to) {
      covered = covered || fs::absolute(allowed).lexically_normal() == wanted;
    }
    if (!covered) {
      throw error(
          fmt::format("the kernel's job needs to write in {}, which its process, started ahead, was not "
                      "allowed to; run the bench again",
                      folder.string()));
    }
  }
}

}  // namespace

[[noreturn]] void run_measuring_process(const measuring_process_options& options) {
  // Before anything of the code under test is loaded: the key kopt sealed this run with.
  const std::optional<std::string> key = take_result_key();
  std::optional<write_sandbox> sandbox;
  std::vector<fs::path> restricted_to;
  std::optional<context_ahead> ahead;
  if (options.gated) {
    if (!options.python.empty() && !options.runner.empty())
      prestart_python_runner(options.python, options.runner);
    if (!options.writes.empty()) {
      // Before any thread starts (the GPU context starts some): the restriction covers them.
      restricted_to.assign(options.writes.begin(), options.writes.end());
      sandbox = sandbox_measuring_process(restricted_to, options.result, false);
      if (!options.gpu_lock.empty()) ahead = make_context_ahead(options.gpu_lock);
    }
    // Only a runner's context is made at the gate: a kernel's process made its own above.
    if (!await_go_line(options.python.empty() ? fs::path() : fs::path(options.gpu_lock))) {
      // The parent did not need this process after all: nothing was read, nothing is written.
      drop_prestarted_runner();
      std::fflush(nullptr);
      ::_exit(static_cast<int>(exit_status::ok));
    }
  }
  const bench_job job =
      read_document_file<bench_job>(options.job, "the measuring job was not written by this kopt");
  // The kernel's process writes only where its run needs to, from before its library is
  // loaded or any thread starts; in profile mode too, where ncu's lock files are added (the
  // sandbox is this process's, the profiled one: ncu itself, kopt's child, is not confined).
  if (job.kind != job_kind::reference) {
    const std::vector<fs::path> needed = own_folders(job, options.result);
    if (!sandbox) {
      sandbox = sandbox_measuring_process(needed, options.result, job.kind == job_kind::profile);
    } else {
      require_started_for(needed, restricted_to);
    }
  }
  // A comparison in turns asks for its blocks on standard input, and gets them back there.
  block_channel channel(STDIN_FILENO, key);
  child_report result = job.kind == job_kind::reference
                            ? run_reference_job(job)
                            : run_kernel_job(job, job.kind == job_kind::blocks ? &channel : nullptr);
  if (sandbox) result.sandbox = sandbox->description;
  // Spent before the gate, during the build: not part of this process's time after it.
  if (ahead && !result.phases_s.empty()) note_context_ahead(result, *ahead);
  const std::string text = json_text(to_document(result));
  write_file_atomic(options.result, key ? sealed(*key, text) : text);
  drop_prestarted_runner();  // not taken (the reference failed before it), or ended
  // Leave at once: exit() would run the kernel library's destructors and atexit handlers,
  // which could rewrite the result just written (EXPLOITS.md #20).
  std::fflush(nullptr);
  ::_exit(static_cast<int>(exit_status::ok));
}

}  // namespace kopt::harness
