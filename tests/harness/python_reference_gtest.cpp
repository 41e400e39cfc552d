// The Python reference path end to end on the CPU: kopt's runner in a real Python process
// with torch, reading the seeds' files, calling reference(), writing outputs back; and the
// ways a reference module can be wrong. Needs python3 with torch (scripts/setup.sh).
#include "harness/python_reference.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/mapped_file.h"
#include "core/python.h"
#include "harness/bench_job.h"
#include "harness/evidence_files.h"
#include "harness/poison.h"
#include "harness/prestarted_runner.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {
using kopt::testing::scratch_dir;

constexpr const char* vector_add = R"(
// kopt: A[N] B[N] C[N]
extern "C" void solve(const float* A, const float* B, float* C, int N) {}
)";

kernel::kernel_plan vector_add_plan(int n) {
  return kernel::plan_kernel("vector_add.cu", vector_add, std::nullopt, {{"N", std::to_string(n), false}}, std::nullopt, {});
}

std::vector<std::byte> floats(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> as_floats(const std::vector<std::byte>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

struct fixture {
  scratch_dir dir;
  kernel::kernel_plan plan = vector_add_plan(4);
  std::map<std::uint64_t, buffer_contents> seeds;
  python_reference_request request;

  explicit fixture(const std::string& module_text) {
    request.python = python_command();
    request.runner = kopt::testing::source_dir() / "python" / "kopt_runner.py";
    request.module = dir.write("ref.py", module_text);
    request.work_dir = dir.path() / "work";
    request.device = "cpu";
    request.plan = &plan;
    seeds[0] = {floats({1, 2, 3, 4}), floats({10, 20, 30, 40}), {}};
    seeds[7] = {floats({-1, -2, -3, -4}), floats({1, 1, 1, 1}), {}};
    request.seeds = &seeds;
  }

  std::string problem() {
    try {
      run_python_reference(request);
    } catch (const error& e) {
      return e.headline() + "\n" + e.detail();
    }
    return "<no error>";
  }
};

TEST(PythonReference, OutputsOfEverySeedComeBack) {
  fixture f("atol = 1e-6\nrtol = 2e-5\n\ndef reference(*, A, B, C, N, **_):\n    C[:N].copy_(A[:N] + B[:N])\n");
  const auto result = run_python_reference(f.request);
  EXPECT_EQ(as_floats(result.outputs.at(0)[2]), (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(as_floats(result.outputs.at(7)[2]), (std::vector<float>{0, -1, -2, -3}));
  EXPECT_TRUE(result.outputs.at(0)[0].empty());  // inputs do not come back
  const reference_runner_result& answer = result.answer;
  EXPECT_EQ(answer.atol, std::optional<double>(1e-6));
  EXPECT_EQ(answer.rtol, std::optional<double>(2e-5));
  EXPECT_FALSE(answer.timing.has_value());
  EXPECT_EQ(answer.torch.version.rfind("2.", 0), 0u) << answer.torch.version;
  EXPECT_EQ(answer.torch.float32_matmul_precision, "highest");
  ASSERT_TRUE(answer.overhead.startup_s && answer.overhead.runner_wall_s && answer.overhead.total_s);
  EXPECT_GE(*answer.overhead.startup_s, 0.0);
  EXPECT_GE(*answer.overhead.runner_wall_s, *answer.overhead.total_s);
}

// The module's tolerances are left where kopt compares from, before the outputs: with a module
// that names only atol, rtol is announced as null (the flags' or the default then).
TEST(PythonReference, TheModulesTolerancesAreAnnouncedBeforeTheOutputs) {
  fixture f("atol = 1e-6\n\ndef reference(*, A, B, C, N, **_):\n    C[:N].copy_(A[:N] + B[:N])\n");
  f.request.tolerances_file = announced_tolerances_file(f.dir.path());
  EXPECT_FALSE(read_announced_tolerances(f.dir.path()).has_value());
  run_python_reference(f.request);
  const std::optional<announced_tolerances> announced = read_announced_tolerances(f.dir.path());
  ASSERT_TRUE(announced.has_value());
  EXPECT_EQ(announced->atol, std::optional<double>(1e-6));
  EXPECT_FALSE(announced->rtol.has_value());
}

TEST(PythonReference, ARunnerStartedAheadGivesTheSameOutputsWithTorchLoadedAlready) {
  fixture f("def reference(*, A, B, C, N, **_):\n    C[:N].copy_(A[:N] + B[:N])\n");
  prestart_python_runner(f.request.python, f.request.runner);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // it waits at its gate meanwhile
  const auto result = run_python_reference(f.request);
  EXPECT_EQ(as_floats(result.outputs.at(0)[2]), (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(as_floats(result.outputs.at(7)[2]), (std::vector<float>{0, -1, -2, -3}));
  const runner_overhead& overhead = result.answer.overhead;
  EXPECT_EQ(overhead.runner_prestarted, true);
  // Where its time went before the gate: torch's import, then the wait for kopt.
  ASSERT_TRUE(overhead.preload_s && overhead.gate_wait_s && overhead.writing_inputs_s);
  EXPECT_GT(*overhead.preload_s, 0.0);
  EXPECT_GE(*overhead.gate_wait_s, 0.0);
  EXPECT_GE(*overhead.writing_inputs_s, 0.0);
  // The next run has no runner waiting: it starts its own, as before.
  const auto again = run_python_reference(f.request);
  EXPECT_EQ(again.answer.overhead.runner_prestarted, false);
  EXPECT_FALSE(again.answer.overhead.preload_s.has_value());
  EXPECT_EQ(as_floats(again.outputs.at(0)[2]), (std::vector<float>{11, 22, 33, 44}));
}

TEST(PythonReference, ARunnerStartedAheadForAnotherPythonIsNotUsed) {
  fixture f("def reference(*, A, B, C, N, **_):\n    C[:N].copy_(A[:N] + B[:N])\n");
  prestart_python_runner(f.request.python, f.request.runner.string() + ".other");
  const auto result = run_python_reference(f.request);
  EXPECT_EQ(result.answer.overhead.runner_prestarted, false);
  drop_prestarted_runner();
}

// For a CUDA kernel on a GPU the runner makes the inputs itself through kopt's harness library;
// where that cannot be (here, no GPU), the library's reason reaches kopt as the runner's one
// line, through the same binding the GPU path uses.
TEST(PythonReference, InputsMadeInTheRunnerNeedTheGpuAndSaySo) {
  fixture f("def reference(*, A, B, C, N, **_):\n    C.copy_(A + B)\n");
  bench_job job;
  job.kind = job_kind::reference;
  job.backend = "cuda";
  job.kernel_source = f.dir.write("vector_add.cu", vector_add).string();
  job.dims = {{"N", "4", false}};
  job.host_only = true;
  job.validation = job_validation{
      (f.dir.path() / "evidence").string(), {evidence_key{evidence_kind::seed, 0, "before timing"}}, 2, true};
  const json document = to_document(job);
  f.request.job = &document;
  f.request.harness_abi_library = kopt::testing::kopt_binary().parent_path().parent_path() / "lib" / "libkopt_harness_abi.so";
  const std::string problem = f.problem();
  EXPECT_EQ(problem.substr(0, problem.find('\n')),
            "kopt's harness could not make the reference's inputs: this reference job's inputs are not made by "
            "kopt's generator on a GPU")
      << problem;
}

TEST(PythonReference, ElementsTheReferenceLeavesKeepTheirPoison) {
  fixture f("def reference(*, A, B, C, N, **_):\n    C[:2].copy_(A[:2] + B[:2])\n");
  const auto result = run_python_reference(f.request);
  const auto expected_poison = poisoned_bytes(f.plan.buffers[2].param.element, 8);
  const auto& c = result.outputs.at(0)[2];
  EXPECT_EQ(as_floats(c)[0], 11.0f);
  EXPECT_EQ(std::memcmp(c.data() + 8, expected_poison.data(), 8), 0);
}

// As a bench runs it: each key's outputs left in that key's evidence folder under the name the
// verdict reads, poison where the reference wrote nothing, and the key marked complete; no
// output crosses as a file the other way (the runner makes the poison), and nothing comes back
// through the result.
TEST(PythonReference, OutputsLeftInTheFoldersTheCallerNames) {
  fixture f("def reference(*, A, B, C, N, **_):\n    C[:2].copy_(A[:2] + B[:2])\n");
  const std::map<std::uint64_t, std::filesystem::path> folders{{0, f.dir.path() / "evidence" / "seed_0"},
                                                               {7, f.dir.path() / "evidence" / "seed_7"}};
  f.request.output_folders = &folders;
  const auto result = run_python_reference(f.request);
  EXPECT_TRUE(result.outputs.empty());
  EXPECT_FALSE(std::filesystem::exists(folders.at(0) / "C.bin")) << "an output's poison is made by the runner";
  const mapped_file c0(folders.at(0) / "C.out.bin");
  ASSERT_EQ(c0.bytes().size(), 16u);
  EXPECT_EQ(as_floats(std::vector<std::byte>(c0.bytes().begin(), c0.bytes().begin() + 8)), (std::vector<float>{11, 22}));
  const auto expected_poison = poisoned_bytes(f.plan.buffers[2].param.element, 8);
  EXPECT_EQ(std::memcmp(c0.bytes().data() + 8, expected_poison.data(), 8), 0);
  const mapped_file c7(folders.at(7) / "C.out.bin");
  EXPECT_EQ(as_floats(std::vector<std::byte>(c7.bytes().begin(), c7.bytes().begin() + 8)), (std::vector<float>{0, -1}));
  // Each key marked complete once its outputs were written, as kopt's harness marks its own.
  for (const auto& [seed, folder] : folders) {
    EXPECT_TRUE(evidence_complete(folder.parent_path(), evidence_key{evidence_kind::seed, seed, ""})) << folder;
  }
}

TEST(PythonReference, RaisingReferenceGivesItsTraceback) {
  fixture f("def reference(*, A, B, C, N, **_):\n    raise ValueError('shapes disagree')\n");
  const std::string problem = f.problem();
  EXPECT_EQ(problem.rfind("the reference " + f.request.module.string() + " raised ValueError: shapes disagree", 0), 0u)
      << problem;
  EXPECT_NE(problem.find("Traceback (most recent call last)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("in reference"), std::string::npos) << problem;
}

TEST(PythonReference, ReferenceNeedingAnOutputTheKernelLacks) {
  fixture f("def reference(*, A, B, out, N):\n    out.copy_(A + B)\n");
  const std::string problem = f.problem();
  EXPECT_NE(problem.find("does not fit the kernel's parameters (A, B, C, N)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("it needs out, which the kernel's solve() does not have"), std::string::npos) << problem;
  EXPECT_NE(problem.find("it does not accept C"), std::string::npos) << problem;
}

TEST(PythonReference, ReferenceThatReturnsInsteadOfWriting) {
  fixture f("def reference(*, A, B, C, N, **_):\n    return A + B\n");
  const std::string problem = f.problem();
  EXPECT_NE(problem.find("wrote none of its outputs (C); it returned a value instead"), std::string::npos) << problem;
}

TEST(PythonReference, ModuleWithoutReference) {
  fixture f("def solve(A, B, C, N):\n    C.copy_(A + B)\n");
  const std::string problem = f.problem();
  EXPECT_NE(problem.find("defines no reference()"), std::string::npos) << problem;
}

TEST(PythonReference, ModuleFailingToImport) {
  fixture f("import no_such_module_here\n\ndef reference(**kw):\n    pass\n");
  const std::string problem = f.problem();
  EXPECT_NE(problem.find("importing the reference"), std::string::npos) << problem;
  EXPECT_NE(problem.find("ModuleNotFoundError"), std::string::npos) << problem;
}

TEST(PythonReference, CheckWithoutRunning) {
  scratch_dir dir;
  const auto runner = kopt::testing::source_dir() / "python" / "kopt_runner.py";
  EXPECT_NO_THROW(check_python_reference(python_command(), runner, kopt::testing::source_dir() / "examples" / "softmax_ref.py"));
  const auto empty = dir.write("empty.py", "\n");
  try {
    check_python_reference(python_command(), runner, empty);
    FAIL() << "no error for a module without reference()";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("defines no reference()"), std::string::npos) << e.headline();
  }
}

}  // namespace
}  // namespace kopt::harness
