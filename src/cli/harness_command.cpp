// kopt harness JOB RESULT: a measuring child process of `kopt bench`, the kernel's or the
// reference's as the job says (not for users; hidden from --help). Exit 0 with RESULT written, whatever the kernel did; 2 for an environment
// problem (its message on stderr). A kernel that kills this process leaves no RESULT.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/result_seal.h"
#include "core/measuring_writes.h"
#include "harness/block_channel.h"
#include "harness/context_ahead.h"
#include "harness/kernel_run.h"
#include "harness/prestarted_runner.h"
#include "harness/reference_gate.h"
#include "harness/reference_run.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

// Where the kernel's measuring process writes besides what every one does (measuring_writes.h):
// its result's folder (beside the job) and the outputs it keeps for the verdict.
std::vector<fs::path> own_folders(const harness::bench_job& job, const fs::path& result) {
  std::vector<fs::path> own = {fs::absolute(result).parent_path()};
  if (!job.evidence_dir.empty()) own.emplace_back(job.evidence_dir);
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
      throw error(fmt::format("the kernel's job needs to write in {}, which its process, started ahead, was not "
                              "allowed to; run the bench again",
                              folder.string()));
    }
  }
}

class harness_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.group("");  // hidden
    // Started ahead by the parent (measuring_worker::prestart): wait for its go line.
    sub.add_flag("--gated", m_gated, "wait for a line on standard input before reading the job");
    sub.add_option("--python", m_python, "with --gated: start this Python's runner now");
    sub.add_option("--runner", m_runner, "with --gated: kopt's Python runner");
    // A CUDA kernel's process started ahead: its writes restricted and its GPU context made
    // before the gate, while kopt compiles the kernel.
    sub.add_option("--writes", m_writes, "with --gated: restrict writes to these folders (and the usual ones) now");
    // A Python reference's, the runner makes its context when the parent asks (reference_gate.h).
    sub.add_option(
        "--gpu-lock", m_gpu_lock,
        "with --gated: the GPU's lock; with --writes the GPU context is made now, holding it, and with "
        "--python the runner makes its context when the parent asks");
    sub.add_option("job", m_job, "job file written by kopt bench")->required();
    sub.add_option("result", m_result, "where to write the result")->required();
  }

  int run(const pipeline::services&) override {
    // Before anything of the code under test is loaded: the key kopt sealed this run with.
    const std::optional<std::string> key = take_result_key();
    std::optional<write_sandbox> sandbox;
    std::vector<fs::path> restricted_to;
    std::optional<harness::context_ahead> ahead;
    if (m_gated) {
      if (!m_python.empty() && !m_runner.empty()) harness::prestart_python_runner(m_python, m_runner);
      if (!m_writes.empty()) {
        // Before any thread starts (the GPU context starts some): the restriction covers them.
        restricted_to.assign(m_writes.begin(), m_writes.end());
        sandbox = sandbox_measuring_process(restricted_to, m_result, false);
        if (!m_gpu_lock.empty()) ahead = harness::make_context_ahead(m_gpu_lock);
      }
      // Only a runner's context is made at the gate: a kernel's process made its own above.
      if (!harness::await_go_line(m_python.empty() ? fs::path() : fs::path(m_gpu_lock))) {
        // The parent did not need this process after all: nothing was read, nothing is written.
        harness::drop_prestarted_runner();
        std::fflush(nullptr);
        ::_exit(static_cast<int>(exit_status::ok));
      }
    }
    const harness::bench_job job = read_document_file<harness::bench_job>(m_job, "the measuring job was not written by this kopt");
    // The kernel's process writes only where its run needs to, from before its library is
    // loaded or any thread starts; in profile mode too, where ncu's lock files are added (the
    // sandbox is this process's, the profiled one: ncu itself, kopt's child, is not confined).
    if (!harness::is_reference_role(job)) {
      const std::vector<fs::path> needed = own_folders(job, m_result);
      if (!sandbox) {
        sandbox = sandbox_measuring_process(needed, m_result, job.profile_mode);
      } else {
        require_started_for(needed, restricted_to);
      }
    }
    // A comparison in turns asks for its blocks on standard input, and gets them back there.
    harness::block_channel channel(STDIN_FILENO, key);
    harness::child_report result = harness::is_reference_role(job)
                                       ? harness::run_reference_job(job)
                                       : harness::run_kernel_job(job, job.timing_blocks ? &channel : nullptr);
    if (sandbox) result.sandbox = sandbox->description;
    // Spent before the gate, during the build: not part of this process's time after it.
    if (ahead && !result.phases_s.empty()) harness::note_context_ahead(result, *ahead);
    const std::string text = json_text(to_document(result));
    write_file_atomic(m_result, key ? sealed(*key, text) : text);
    harness::drop_prestarted_runner();  // not taken (the reference failed before it), or ended
    // Leave at once: exit() would run the kernel library's destructors and atexit handlers,
    // which could rewrite the result just written (EXPLOITS.md #20).
    std::fflush(nullptr);
    ::_exit(static_cast<int>(exit_status::ok));
  }

 private:
  std::string m_job;
  std::string m_result;
  bool m_gated = false;
  std::string m_python;
  std::string m_runner;
  std::vector<std::string> m_writes;
  std::string m_gpu_lock;
};

}  // namespace

std::unique_ptr<command> make_harness_command() { return std::make_unique<harness_command>(); }

}  // namespace kopt::cli
