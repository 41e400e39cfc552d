// A kopt loop with scripted measurements as its own process, for the kill test: it runs
// `--agent` iterations in WORK until MAX, with up to CANDIDATES versions per iteration (1: the
// single-file protocol), resuming the run in RUN_DIR when given, and prints the run folder
// first so that the test can find it even when it kills this process.
//   loop_kill_driver WORK MAX CANDIDATES [RUN_DIR]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "loop/agent_loop.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "scripted_services.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 4) return 2;
  const fs::path work = argv[1];
  kopt::loop::loop_settings settings;
  settings.target.kernel = work / "softmax.cu";
  settings.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
  settings.max_iterations = std::atoi(argv[2]);
  settings.memory_db = work / "memory.db";
  settings.run_dir = argc > 4 ? fs::path(argv[4]) : kopt::loop::create_run_dir(settings.target.kernel);
  settings.new_run = !fs::exists(settings.run_dir / kopt::loop::run_manifest_name);  // killed before v0: start it
  std::printf("%s\n", settings.run_dir.c_str());
  std::fflush(stdout);
  kopt::loop::agent_settings agent;
  agent.command = "sh " + (work / "agent.sh").string();
  agent.patience = 1000;
  agent.candidates = std::atoi(argv[3]);
  kopt::loop::testing::scripted_gpu gpu;
  try {
    const auto outcome = kopt::loop::run_agent_loop(settings, agent, gpu.services());
    return outcome.failed ? 1 : 0;
  } catch (const kopt::error& e) {
    std::fprintf(stderr, "%s\n", e.headline().c_str());
    return 2;
  }
}
