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

#include "cli/commands.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/result_seal.h"
#include "core/write_sandbox.h"
#include "harness/block_channel.h"
#include "harness/kernel_run.h"
#include "harness/prestarted_runner.h"
#include "harness/reference_run.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

// Where the kernel's measuring process writes: its result (beside the job), the outputs it
// keeps for the verdict, and what every process needs (devices, its /proc, temporary files).
std::vector<fs::path> writable_folders(const harness::bench_job& job, const fs::path& result) {
  std::vector<fs::path> folders = common_writable_folders();
  folders.push_back(fs::absolute(result).parent_path());
  if (!job.evidence_dir.empty()) {
    // Made now: a folder that is not there yet cannot be allowed (wherever the parent put it).
    fs::create_directories(job.evidence_dir);
    folders.emplace_back(job.evidence_dir);
  }
  return folders;
}

// Blocks until the parent's go line (true) or the end of standard input (false: the parent
// dropped this process, or died).
bool go_line_came() {
  char c = 0;
  while (true) {
    const ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') return true;
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
    sub.add_option("job", m_job, "job file written by kopt bench")->required();
    sub.add_option("result", m_result, "where to write the result")->required();
  }

  int run() override {
    // Before anything of the code under test is loaded: the key kopt sealed this run with.
    const std::optional<std::string> key = take_result_key();
    if (m_gated) {
      if (!m_python.empty() && !m_runner.empty()) harness::prestart_python_runner(m_python, m_runner);
      if (!go_line_came()) {
        // The parent did not need this process after all: nothing was read, nothing is written.
        harness::drop_prestarted_runner();
        std::fflush(nullptr);
        ::_exit(static_cast<int>(exit_status::ok));
      }
    }
    const harness::bench_job job = harness::bench_job_from_json(read_json_file(m_job));
    // The kernel's process writes only where its run needs to, from before its library is
    // loaded or any thread starts (a profile under ncu is left as ncu needs it).
    std::optional<write_sandbox> sandbox;
    if (!harness::is_reference_role(job) && !job.profile_mode) sandbox = restrict_writes_to(writable_folders(job, m_result));
    // A comparison in turns asks for its blocks on standard input, and gets them back there.
    harness::block_channel channel(STDIN_FILENO, key);
    json result = harness::is_reference_role(job) ? harness::run_reference_job(job)
                                                  : harness::run_kernel_job(job, job.timing_blocks ? &channel : nullptr);
    if (sandbox) result["sandbox"] = sandbox->description;
    const std::string text = json_text(result);
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
};

}  // namespace

std::unique_ptr<command> make_harness_command() { return std::make_unique<harness_command>(); }

}  // namespace kopt::cli
