// The Triton path on the CPU, as kopt runs it: the problem step runs setup() in a process of
// its own, Triton's interpreter (TRITON_INTERPRET=1) runs tests/data/triton/scale.py and its
// broken variants in the kernel's measuring process (the runner kopt ships,
// share/kopt/kopt_runner.py beside the kopt binary, driving kopt's C++ protocol in
// lib/libkopt_harness_abi.so, with every buffer in host memory), the reference in a process of
// its own (kopt harness), and the parent (pipeline::run_judged) compares their outputs. Only
// the GPU is missing: the worker below starts the same processes without one. What a GPU adds
// (compiling, timing, the profiler window) runs in triton_gpu_gtest on the GPU machine. Needs
// python3 with torch and triton (scripts/setup.sh).
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_io.h"
#include "core/private_folder.h"
#include "core/python.h"
#include "harness/bench_job.h"
#include "pipeline/judged_run.h"
#include "pipeline/child_seal.h"
#include "pipeline/measuring_child.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/triton_problem_step.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {
namespace fs = std::filesystem;
using kopt::testing::first_line;
using kopt::testing::scratch_dir;

fs::path data(const std::string& name) { return fs::path(KOPT_TEST_DATA_DIR) / "triton" / name; }

struct runner_run {
  int exit_code = 0;        // 0: a result; 2: kopt's error (the user's module at fault)
  std::string stderr_text;  // the error's line and detail (a traceback, say)
  json result;              // null after an error
};

// The process worker's children, started on this machine without a GPU or its lock.
class cpu_worker final : public pipeline::measuring_worker {
 public:
  cpu_worker(const fs::path& dir, std::map<std::string, std::string> env) : m_dir(dir), m_env(std::move(env)) {}

  env::gpu_probe_result probe_gpus() override { return {}; }

  pipeline::wrapped_child_run run(const std::vector<std::string>&, const bench_job& job, const env::gpu_device&,
                                  int timeout_s) override {
    const fs::path job_file = m_dir / (enum_name(job.kind) + "-job.json");
    const fs::path result_file = m_dir / (enum_name(job.kind) + "-result.json");
    fs::remove(result_file);
    write_json_file(job_file, to_document(job));
    pipeline::wrapped_child_run run;
    // `kopt harness` is this test's kopt, not the test program that is running.
    std::vector<std::string> argv = pipeline::measuring_child_argv(job, job_file.string(), result_file.string());
    if (argv.front() == fs::read_symlink("/proc/self/exe").string()) argv.front() = kopt::testing::kopt_binary().string();
    process_request request{.argv = argv,
                            .extra_env = m_env,
                            .timeout = std::chrono::seconds(timeout_s),
                            .ends_with_program = true};
    const pipeline::child_seal seal(pipeline::result_is_sealed({}, job));
    seal.prepare(request);
    run.process = run_process(request);
    run.result = seal.read(result_file, run.forged_result);
    return run;
  }

 private:
  fs::path m_dir;
  std::map<std::string, std::string> m_env;
};

struct triton_fixture {
  scratch_dir dir;
  bench_job job;
  std::map<std::string, std::string> env{{"TRITON_INTERPRET", "1"}, {"CUDA_VISIBLE_DEVICES", ""}};

  triton_fixture() {
    const fs::path prefix = kopt::testing::kopt_binary().parent_path().parent_path();
    job.kernel_source = data("scale.py").string();
    job.reference_source = data("scale_ref.py").string();
    job.python = python_command();
    job.python_runner = (prefix / "share" / "kopt" / "kopt_runner.py").string();
    job.harness_abi_library = (prefix / "lib" / "libkopt_harness_abi.so").string();
    job.backend = "triton";
    job.dims = {{"n", "1000", false}};
    job.validation = job_validation{"", {}, 2, false};  // no GPU: checks only
    job.idle_peers = 0;
    job.host_only = true;
  }

  runner_run run(const std::string& variant = "correct") {
    env["KOPT_TEST_VARIANT"] = variant;
    env["TRITON_CACHE_DIR"] = (dir.path() / "triton-cache").string();
    cpu_worker worker(dir.path(), env);
    runner_run r;
    try {
      // As kopt bench does: the problem first, in a process of its own, then the judged run.
      const pipeline::triton_problem_run problem = pipeline::run_triton_problem_step(worker, job, env::gpu_device{}, 240);
      if (problem.failure) {
        r.result = json{{"status", "failed"}, {"reason", *problem.failure}};
        return r;
      }
      bench_job judged = job;
      judged.triton_problem = to_json(problem.problem);
      const private_folder evidence("kopt-evidence", "the outputs");
      // Both children's reports went through the parent's checking reader on the way.
      r.result = to_document(pipeline::run_judged(worker, judged, env::gpu_device{}, 240,
                                                  {evidence.path() / "kernel", evidence.path() / "reference"}));
    } catch (const error& e) {
      r.exit_code = 2;
      r.stderr_text = e.headline() + "\n" + e.detail();
    }
    return r;
  }

  // A module of the test's own, for the contract's error paths.
  void use_kernel(const std::string& text) { job.kernel_source = dir.write("kernel.py", text).string(); }
};

TEST(TritonRunner, CorrectKernelPassesEverySeed) {
  triton_fixture f;
  const runner_run r = f.run();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "ok") << r.result.dump(2);
  const json& correctness = r.result["correctness"];
  EXPECT_TRUE(correctness["checked"].get<bool>());
  EXPECT_TRUE(correctness["passed"].get<bool>());
  EXPECT_EQ(correctness["output_tensor_count"], 1);
  EXPECT_EQ(correctness["atol"], 1e-6);  // the reference module's
  ASSERT_EQ(correctness["seeds"].size(), 2u);
  EXPECT_EQ(correctness["seeds"][1]["seed"], 1);
  const json& y = correctness["seeds"][0]["outputs"][0];
  EXPECT_EQ(y["name"], "y");
  EXPECT_EQ(y["elements"], 1000);
  EXPECT_EQ(y["compared"], 1000);
  EXPECT_EQ(r.result["problem_source"], "kernel");  // scale_ref.py has no setup() of its own
  EXPECT_EQ(r.result["dims"]["n"], 1000);
  EXPECT_TRUE(r.result["triton"]["interpreted"].get<bool>());
  EXPECT_EQ(r.result["triton"]["version"], "3.6.0");
  EXPECT_TRUE(r.result["kernel"].is_null());  // nothing timed without a GPU
}

TEST(TritonRunner, FlagTolerancesWinOverTheReferenceModule) {
  triton_fixture f;
  f.job.atol = 0.5;
  const runner_run r = f.run();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["correctness"]["atol"], 0.5);
  EXPECT_EQ(r.result["correctness"]["rtol"], 1e-6);
}

TEST(TritonRunner, PartialOutputFails) {
  triton_fixture f;
  const runner_run r = f.run("half");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_NE(r.result["reason"].get<std::string>().find("validation failed (seed 0): partial write: y:"), std::string::npos)
      << r.result["reason"];
  EXPECT_EQ(r.result["correctness"]["seeds"][0]["outputs"][0]["unwritten"], 500);
  EXPECT_FALSE(r.result["correctness"]["passed"].get<bool>());
}

TEST(TritonRunner, WritePastTheEndIsCaughtByTheGuard) {
  triton_fixture f;
  const runner_run r = f.run("past_end");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  // 16 floats past the end: 64 bytes, less any that happen to equal the canary byte.
  const std::string reason = r.result["reason"].get<std::string>();
  EXPECT_EQ(reason.rfind("out of bounds: wrote ", 0), 0u) << reason;
  EXPECT_NE(reason.find(" bytes past the end of y (first at +0 bytes)"), std::string::npos) << reason;
}

TEST(TritonRunner, WriteIntoAnInputFails) {
  triton_fixture f;
  const runner_run r = f.run("writes_input");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["reason"], "write into input: the kernel wrote into its input x (not among setup()'s outputs)");
}

TEST(TritonRunner, NanOutputFails) {
  triton_fixture f;
  const runner_run r = f.run("nan");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["correctness"]["seeds"][0]["outputs"][0]["first_mismatches"][0]["what"], "NaN");
}

TEST(TritonRunner, ReadingAPoisonedOutputSuggestsInout) {
  triton_fixture f;
  const runner_run r = f.run("reads_output");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_NE(r.result["reason"].get<std::string>().find("list it in setup()'s \"inout\""), std::string::npos)
      << r.result["reason"];
}

TEST(TritonRunner, InoutOutputKeepsItsContentsForKernelAndReference) {
  triton_fixture f;
  f.job.reference_source = data("scale_inout_ref.py").string();
  const runner_run r = f.run("inout");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "ok") << r.result["reason"];
  EXPECT_TRUE(r.result["correctness"]["passed"].get<bool>());
}

TEST(TritonRunner, RunKernelRaisingIsAFailedKernelWithItsTraceback) {
  triton_fixture f;
  const runner_run r = f.run("raises");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["reason"], "run_kernel() in " + f.job.kernel_source +
                                    " raised ValueError: the block size does not divide n");
  EXPECT_NE(r.result["detail"].get<std::string>().find("Traceback"), std::string::npos);
}

TEST(TritonRunner, WithoutReferenceOnlyGuardsAndInputsAreChecked) {
  triton_fixture f;
  f.job.reference_source = "";
  const runner_run r = f.run("half");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "ok");
  EXPECT_FALSE(r.result["correctness"]["checked"].get<bool>());
}

TEST(TritonRunner, SetupThatIgnoresTheSeedFailsAsSeedBlindness) {
  triton_fixture f;
  const runner_run r = f.run("seed_blind");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["reason"].get<std::string>().rfind(
                "seed blindness: setup() in " + f.job.kernel_source + " returned the same inputs for seeds 0 and 1", 0),
            0u)
      << r.result["reason"];
}

TEST(TritonRunner, AModuleThatPatchesTorchCannotReachTheReference) {
  // In one interpreter the patch would make the reference write zeros too, and the kernel pass.
  triton_fixture f;
  const runner_run r = f.run("patches_reference");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["reason"].get<std::string>().rfind("validation failed (seed 0): constant output: y", 0), 0u)
      << r.result["reason"];
}

TEST(TritonRunner, AKernelThatChangesTheProblemsFilesFailsAsTampering) {
  // It zeroes the inputs setup() left and writes zeros: the reference, given the zeroed files,
  // would agree. The reference's process checks the files against the parent's digests.
  triton_fixture f;
  // With the sandbox, the problem's files (in the problem step's private folder) are not the
  // kernel's to write: the write itself is refused.
  const runner_run r = f.run("tampers_problem");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  const std::string reason = r.result["reason"].get<std::string>();
  if (r.result.value("sandbox", "").rfind("Landlock ABI ", 0) == 0) {
    EXPECT_NE(reason.find("PermissionError"), std::string::npos) << reason;
    EXPECT_NE(reason.find("kopt-problem-"), std::string::npos) << reason;
  } else {
    EXPECT_EQ(reason.rfind("problem tampering: the inputs setup() made for x (seed 0)", 0), 0u) << reason;
  }
}

// The kernel's process may write only where its run needs to (Landlock, where the kernel has
// it): a module that writes anywhere else (the system's temporary folder, the reference, kopt's
// cache, the user's packages) gets PermissionError and writes nothing. Its temporary folder is
// its run's own.
TEST(TritonRunner, TheKernelsProcessCannotWriteOutsideItsRunsFolders) {
  triton_fixture f;
  // The system's temporary folder, as the processes are given it: closed to the kernel's.
  scratch_dir system_temporary;
  f.env["TMPDIR"] = system_temporary.path().string();
  const fs::path victim = system_temporary.path() / "written.txt";
  f.env["KOPT_TEST_VICTIM"] = victim.string();
  const runner_run r = f.run("writes_file");
  const bool written = fs::exists(victim);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string sandbox = r.result.value("sandbox", "");
  if (sandbox.rfind("unavailable: ", 0) == 0) {
    // A kernel without Landlock: the run goes on unrestricted, and says so.
    EXPECT_TRUE(written);
    return;
  }
  EXPECT_EQ(sandbox.rfind("Landlock ABI ", 0), 0u) << r.result.dump(2);
  EXPECT_EQ(sandbox.find(system_temporary.path().string() + ","), std::string::npos) << sandbox;
  EXPECT_EQ(sandbox.find("/dev/shm,"), std::string::npos) << sandbox;
  EXPECT_EQ(sandbox.find("/dev,"), std::string::npos) << sandbox;
  EXPECT_FALSE(written) << "the kernel's process wrote into the system's temporary folder";
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_NE(r.result["reason"].get<std::string>().find("PermissionError"), std::string::npos) << r.result["reason"];
}

TEST(TritonRunner, AProcessTheKernelDetachesIsKilledAndFailsTheRun) {
  triton_fixture f;
  const runner_run r = f.run("detaches");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  const std::string reason = r.result["reason"].get<std::string>();
  // One per run_kernel() call: the two validation seeds'.
  EXPECT_EQ(reason.rfind("detached process: the measuring process left 2 processes running after it ended (", 0), 0u)
      << reason;
  EXPECT_NE(reason.find("sleep 41); kopt killed them"), std::string::npos) << reason;
}

TEST(TritonRunner, AResultTheModuleWritesItselfIsRefused) {
  // Right on the first seed, whose outputs kopt kept; then it writes a pass on that seed alone
  // into kopt's result file and ends the process. Without the seal kopt would take it.
  triton_fixture f;
  const runner_run r = f.run("forges_result");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["reason"].get<std::string>().rfind(
                "forged result: the measuring process's result does not carry the seal kopt gave that process", 0),
            0u)
      << r.result["reason"];
}

TEST(TritonRunner, AReferenceWithASetupDefinesTheProblemAndTheKernelNeedsNone) {
  triton_fixture f;
  f.job.reference_source = data("scale_setup_ref.py").string();
  f.use_kernel(std::string("import scale\n\ndef run_kernel(**kwargs):\n    scale.run_kernel(**kwargs)\n"));
  f.env["PYTHONPATH"] = data("").string();
  const runner_run r = f.run();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "ok") << r.result["reason"];
  EXPECT_EQ(r.result["problem_source"], "reference");
  EXPECT_TRUE(r.result["correctness"]["passed"].get<bool>());
}

TEST(TritonRunner, AKernelSetupDeclaringAHalfSizeProblemIsAMismatch) {
  // EXPLOITS.md #16: the kernel's own setup() says n/2; the reference's setup() is the problem.
  triton_fixture f;
  f.job.reference_source = data("scale_setup_ref.py").string();
  f.use_kernel(std::string("import torch\nimport scale\n\n"
                           "def setup(*, n, seed=0):\n"
                           "    x = torch.randn(n // 2)\n"
                           "    return {\"inputs\": {\"x\": x, \"y\": torch.empty_like(x), \"n\": n // 2}, \"outputs\": [\"y\"]}\n\n"
                           "def run_kernel(**kwargs):\n    scale.run_kernel(**kwargs)\n"));
  f.env["PYTHONPATH"] = data("").string();
  const runner_run r = f.run();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.result["status"], "failed");
  EXPECT_EQ(r.result["reason"].get<std::string>().rfind(
                "problem mismatch: the kernel's setup() makes x a float32[500] where the reference's setup() makes it "
                "a float32[1000]",
                0),
            0u)
      << r.result["reason"];
}

TEST(TritonRunner, AReferenceSetupThatIgnoresTheSeedIsTheUsersToFix) {
  triton_fixture f;
  f.job.reference_source = data("scale_setup_ref.py").string();
  f.env["SEED_BLIND"] = "1";
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("seed blindness: setup() in " + f.job.reference_source, 0), 0u)
      << r.stderr_text;
}

// ---------------------------------------------------------------- the module's contract (exit 2)

constexpr const char* kernel_head = "import torch\nimport triton\n\ndef run_kernel(**_):\n    pass\n\n";

TEST(TritonRunner, MissingSetupAndRunKernelAreNamed) {
  triton_fixture f;
  f.use_kernel("import torch\n");
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "the Triton kernel " + f.job.kernel_source +
                " defines no setup() and no run_kernel(): a Triton module needs setup(**dims, seed=...) returning "
                "{\"inputs\": {...}, \"outputs\": [...]} (or a reference with one) and run_kernel(**inputs)");
}

TEST(TritonRunner, SetupReturningTheWrongShape) {
  triton_fixture f;
  f.use_kernel(std::string(kernel_head) + "def setup(*, n, seed=0):\n    return [torch.zeros(n)]\n");
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("returned list without an \"inputs\" dict"), std::string::npos)
      << r.stderr_text;
}

TEST(TritonRunner, OutputNotAmongTheInputs) {
  triton_fixture f;
  f.use_kernel(std::string(kernel_head) +
               "def setup(*, n, seed=0):\n    return {\"inputs\": {\"x\": torch.zeros(n)}, \"outputs\": [\"y\"]}\n");
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("output 'y' is not among the inputs (x)"), std::string::npos)
      << r.stderr_text;
}

TEST(TritonRunner, OutputThatIsNotATensor) {
  triton_fixture f;
  f.use_kernel(std::string(kernel_head) +
               "def setup(*, n, seed=0):\n    return {\"inputs\": {\"x\": torch.zeros(n), \"n\": n}, \"outputs\": [\"n\"]}\n");
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("output 'n' is of type int, not a tensor"), std::string::npos)
      << r.stderr_text;
}

TEST(TritonRunner, MissingDimensionIsNamedWithTheFlag) {
  triton_fixture f;
  f.job.dims.clear();
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "setup() in " + f.job.kernel_source + " needs n: pass --n=VALUE");
}

TEST(TritonRunner, SetupRaisingShowsItsTraceback) {
  triton_fixture f;
  f.use_kernel(std::string(kernel_head) + "def setup(*, n, seed=0):\n    raise RuntimeError('no memory for n')\n");
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "setup() in " + f.job.kernel_source + " raised RuntimeError: no memory for n");
  EXPECT_NE(r.stderr_text.find("Traceback"), std::string::npos);
}

TEST(TritonRunner, ReferenceWritingAnInputIsNamed) {
  triton_fixture f;
  f.job.reference_source = f.dir.write("ref.py", "def reference(*, x, y, n, **_):\n    y.copy_(2 * x)\n    x.zero_()\n").string();
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("wrote into x, which is not among the kernel's outputs (y): leave it unchanged"),
            std::string::npos)
      << r.stderr_text;
}

// A Python whose `import triton` (or torch) fails, as on a machine without it.
TEST(TritonRunner, MissingTritonSaysWhatToInstall) {
  triton_fixture f;
  f.dir.write("hide/triton/__init__.py", "raise ImportError('No module named triton')\n");
  f.env["PYTHONPATH"] = (f.dir.path() / "hide").string();
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("triton is not installed"), std::string::npos)
      << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("pip install triton==3.6.0"), std::string::npos);
}

TEST(TritonRunner, MissingTorchSaysWhatToInstall) {
  triton_fixture f;
  f.dir.write("hide/torch/__init__.py", "raise ImportError('No module named torch')\n");
  f.env["PYTHONPATH"] = (f.dir.path() / "hide").string();
  const runner_run r = f.run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("torch is not installed"), std::string::npos)
      << r.stderr_text;
}

}  // namespace
}  // namespace kopt::harness
