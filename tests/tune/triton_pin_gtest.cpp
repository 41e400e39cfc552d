// A Triton configuration as kopt tune measures it (tune/configured_kernel.h): the module's copy
// with the values pinned, run here by Python under Triton's interpreter. The pinned autotuner
// holds the one configuration asked for and launches it without searching (a search would need
// a GPU driver, which this machine lacks), and each value changes what the kernel computes.
#include "tune/configured_kernel.h"

#include <sstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/python.h"
#include "core/subprocess.h"
#include "support/kopt_process.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace {
namespace fs = std::filesystem;

// Runs the module at n = 256 and prints: configs held, the config's kwargs, num_warps, and how
// many of the 256 outputs are 2x.
constexpr const char* driver = R"(
import runpy, sys
ns = runpy.run_path(sys.argv[1])
problem = ns["setup"](n=256)
ns["run_kernel"](**problem["inputs"])
x, y = problem["inputs"]["x"], problem["inputs"]["y"]
tuner = ns["scale_kernel"]
config = tuner.configs[0]
print(len(tuner.configs), config.kwargs["COVER"], config.num_warps, int((y == 2 * x).sum()))
)";

struct pinned_run {
  std::string output;  // "configs cover num_warps correct"
  std::string stderr_text;
  pipeline::bench_target target;
};

pinned_run run_pinned(const testing::scratch_dir& dir, const kernel::tune_configuration& c) {
  pipeline::bench_target original;
  original.kernel = fs::path(KOPT_TEST_DATA_DIR) / "triton" / "autotuned_scale.py";
  const std::string source = read_text_file(original.kernel, "test module");
  pinned_run r;
  r.target = configured_target(original, source, c, dir.path());
  process_request request;
  request.argv = {python_command(), "-c", driver, r.target.kernel.string()};
  request.extra_env = {{"TRITON_INTERPRET", "1"}, {"CUDA_VISIBLE_DEVICES", ""}};
  request.timeout = std::chrono::seconds(120);
  const process_result p = run_process(request);
  r.output = p.stdout_text.empty() ? "" : p.stdout_text.substr(0, p.stdout_text.find('\n'));
  r.stderr_text = p.stderr_text;
  return r;
}

TEST(TritonPin, EachConfigurationRunsPinnedAndItsValuesChangeWhatTheKernelComputes) {
  const testing::scratch_dir dir;
  const pinned_run first = run_pinned(dir, {{{"config", 0}, {"num_warps", 1}, {"OFFSET", 0}}});
  EXPECT_EQ(first.output, "1 64 1 256") << first.stderr_text;
  EXPECT_TRUE(first.target.defines.empty()) << "a Triton module has no build to pass -D to";
  EXPECT_EQ(first.target.kernel.parent_path(), dir.path() / "configurations");
  EXPECT_EQ(first.target.kernel.filename(), "autotuned_scale_config-0_num_warps-1_OFFSET-0.py");

  const pinned_run half = run_pinned(dir, {{{"config", 1}, {"num_warps", 2}, {"OFFSET", 0}}});
  EXPECT_EQ(half.output, "1 32 2 128") << "the second config covers half of each block: " << half.stderr_text;
  const pinned_run shifted = run_pinned(dir, {{{"config", 0}, {"num_warps", 1}, {"OFFSET", 1}}});
  EXPECT_EQ(shifted.output, "1 64 1 0") << "the module-level integer was set: " << shifted.stderr_text;
}

TEST(TritonPin, ANameThatPinsNothingStopsTheModuleWithTheName) {
  const testing::scratch_dir dir;
  const pinned_run r = run_pinned(dir, {{{"config", 0}, {"BLOK", 64}}});
  EXPECT_EQ(r.output, "");
  EXPECT_NE(r.stderr_text.find("tune parameter(s) BLOK name no constexpr of an @triton.autotune config"),
            std::string::npos)
      << r.stderr_text;
}

TEST(TritonPin, ACudaKernelKeepsItsFileAndGetsTheValuesAsDefines) {
  const testing::scratch_dir dir;
  pipeline::bench_target original;
  original.kernel = dir.path() / "k.cu";
  original.defines = {"OTHER=1"};
  const pipeline::bench_target t =
      configured_target(original, "extern \"C\" void solve() {}\n", {{{"BLOCK", 128}}}, dir.path());
  EXPECT_EQ(t.kernel, original.kernel);
  EXPECT_EQ(t.defines, (std::vector<std::string>{"OTHER=1", "BLOCK=128"}));
  EXPECT_FALSE(fs::exists(dir.path() / "configurations"));
}

// What `value()` of the module at `file` returns, run from `working_dir`.
process_result value_of(const fs::path& file, const fs::path& working_dir) {
  process_request request;
  request.argv = {python_command(), "-c", "import runpy, sys; print(runpy.run_path(sys.argv[1])['value']())",
                  file.string()};
  request.working_dir = working_dir;
  request.timeout = std::chrono::seconds(120);
  return run_process(request);
}

TEST(TritonPin, TheCopiesImportTheModulesSiblingsAndKeepTheirFutureImportsFirst) {
  const testing::scratch_dir project;
  project.write("helper_values.py", "BASE = 7\n");
  const fs::path module = project.write("scaled.py",
                                        "\"\"\"A module with a sibling and a future import.\"\"\"\n"
                                        "from __future__ import (annotations,\n"
                                        "                        division)\n"
                                        "# kopt: tune(FACTOR, 2, 3)\n"
                                        "import helper_values\n"
                                        "FACTOR = 2\n"
                                        "def value() -> int:\n"
                                        "    return helper_values.BASE * FACTOR\n");
  const std::string source = read_text_file(module, "test module");
  const testing::scratch_dir runs;
  pipeline::bench_target original;
  original.kernel = module;
  const pipeline::bench_target t = configured_target(original, source, {{{"FACTOR", 3}}}, runs.path());
  ASSERT_NE(t.kernel.parent_path(), module.parent_path()) << "the copy is measured from the run folder";
  // Run from the run folder, not the module's: only the copy's own line can find the sibling.
  const process_result measured = value_of(t.kernel, runs.path());
  EXPECT_EQ(measured.stdout_text, "21\n") << measured.stderr_text;
  // The fastest two and the winner are written into the run folder the same way.
  const fs::path winner = runs.write(
      "scaled_tuned.py", tuned_copy_source(source, {{{"FACTOR", 3}}}, kernel::backend::triton, module));
  const process_result tuned = value_of(winner, runs.path());
  EXPECT_EQ(tuned.stdout_text, "21\n") << tuned.stderr_text;
}

}  // namespace
}  // namespace kopt::tune
