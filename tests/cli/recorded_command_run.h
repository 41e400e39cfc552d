#pragma once
// kopt's real commands, parsed and run in this process as main runs them, with a recorded
// measuring worker where the GPU would be (the front end's services), and a compile cache of
// the test's own.

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/command_line.h"
#include "pipeline/recorded_worker.h"
#include "support/captured_output.h"
#include "support/kopt_process.h"

namespace kopt::cli {

class recorded_command_test : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1); }

  // The command line, run with a worker that records what it was asked and answers as `worker` does.
  testing::captured_run run(const std::vector<std::string>& words, pipeline::recorded_worker& worker) const {
    pipeline::services services;
    services.make_worker = [&worker] { return std::make_unique<pipeline::lent_worker>(worker); };
    services.reference_timing_folder = m_cache.path() / "reference_timing";
    return testing::run_captured([&] { return run_command_line(words, "kopt (test)", services); });
  }

  static std::string example(const char* name) {
    return (testing::source_dir() / "examples" / name).string();
  }

  testing::scratch_dir m_cache;
  testing::scratch_dir m_out;
};

}  // namespace kopt::cli
