// kopt harness JOB RESULT: a measuring child process of `kopt bench`, the kernel's or the
// reference's as the job says (not for users; hidden from --help). Its whole life is
// harness::run_measuring_process: exit 0 with RESULT written, whatever the kernel did; 2 for an
// environment problem (its message on stderr). A kernel that kills this process leaves no RESULT.
#include "cli/commands.h"
#include "harness/measuring_process.h"

namespace kopt::cli {
namespace {

class harness_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_flag("--gated", m_options.gated, "wait for a line on standard input before reading the job");
    sub.add_option("--python", m_options.python, "with --gated: start this Python's runner now");
    sub.add_option("--runner", m_options.runner, "with --gated: kopt's Python runner");
    sub.add_option("--writes", m_options.writes,
                   "with --gated: restrict writes to these folders (and the usual ones) now");
    sub.add_option(
        "--gpu-lock", m_options.gpu_lock,
        "with --gated: the GPU's lock; with --writes the GPU context is made now, holding it, and with "
        "--python the runner makes its context when the parent asks");
    sub.add_option("job", m_options.job, "job file written by kopt bench")->required();
    sub.add_option("result", m_options.result, "where to write the result")->required();
  }

  int run(const pipeline::services&) override { harness::run_measuring_process(m_options); }

 private:
  harness::measuring_process_options m_options;
};

}  // namespace

std::unique_ptr<command> make_harness_command() { return std::make_unique<harness_command>(); }

}  // namespace kopt::cli
