#include "scripted_run.h"

#include <stdexcept>

#include <fmt/format.h>

#include "core/files.h"
#include "loop/agent_loop.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::report::testing {
namespace {

namespace fs = std::filesystem;
using kopt::testing::scratch_dir;

struct scripted_version {
  double speed;             // of the baseline's time
  const char* extra;        // a marker the scripted GPU reacts to
  const char* tags;         // what the agent writes into the proposal
};

}  // namespace

fs::path write_scripted_run(const fs::path& work) {
  using loop::testing::softmax_version;
  fs::create_directories(work / "versions");
  const fs::path kernel = work / "softmax.cu";
  write_file_atomic(kernel, softmax_version(1.0));
  const scripted_version versions[] = {
      {0.6, "// v1: one block per row, shared-memory reduction", "- block_per_row\n- shared_memory_reduction\n"},
      {0.55, "// v2: float4 loads\n// fails validation", "- vectorized_float4_io\n"},
      {0.65, "// v3: warp shuffles", "- warp_shuffle_reduction\n"},
  };
  for (int i = 0; i < 3; ++i) {
    const scripted_version& v = versions[i];
    write_file_atomic(work / "versions" / fmt::format("v{}.cu", i + 1), softmax_version(v.speed, v.extra));
    write_file_atomic(work / "versions" / fmt::format("v{}.tags", i + 1), v.tags);
  }
  // The agent: takes the prepared next version and names its strategy in the proposal.
  write_file_atomic(work / "agent.sh",
                    "#!/bin/sh\n"
                    "v=\"$(dirname \"$0\")/versions/v$KOPT_NEXT_ITERATION\"\n"
                    "cp \"$v.cu\" \"$KOPT_KERNEL\" && cat \"$v.tags\" >> \"$KOPT_PROPOSAL\"\n");

  loop::testing::scripted_gpu gpu;
  gpu.profile_fixture = "softmax_naive";
  gpu.fixture_by_marker = {{"// v1:", "softmax_block"}, {"// v3:", "triton_softmax"}};
  loop::loop_settings settings;
  settings.target.kernel = kernel;
  // The scripted GPU times a reference at 0.12 ms: the run has one, as a real one would.
  fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", work / "softmax_ref.py");
  settings.target.ref = work / "softmax_ref.py";
  settings.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
  settings.max_iterations = 3;
  settings.memory_db = work / "memory.db";
  loop::agent_settings agent;
  agent.command = "sh " + (work / "agent.sh").string();
  agent.timeout = std::chrono::seconds(60);
  const loop::agent_loop_outcome out = loop::run_agent_loop(settings, agent, gpu.services());
  if (out.failed) throw std::runtime_error("the scripted run failed: " + out.stop_reason);
  return out.last.run_dir;
}

fs::path fixture_run_dir() {
  // Made once per test process, in a folder that goes with it; the memory the run used is
  // removed, as a run moved to another machine finds it gone.
  static const scratch_dir work;
  static const fs::path run = [] {
    const fs::path made = write_scripted_run(work.path());
    for (const char* file : {"memory.db", "memory.db-wal", "memory.db-shm"}) fs::remove(work.path() / file);
    return made;
  }();
  return run;
}

}  // namespace kopt::report::testing
