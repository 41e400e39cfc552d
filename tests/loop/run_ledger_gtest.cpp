// The agent between iterations (EXPLOITS.md #30) against the loop, on the CPU: what an agent
// (or anything else) changes in the run folder after kopt recorded it — the manifest resealed
// with its plain SHA-256, an earlier version's snapshot or kept library, the proposal of
// another iteration, a candidate's copied proposal — is refused before the next iteration
// measures anything, naming the file; a run the ledger does not know is unverified, not refused.
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "loop/loop_step.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "scripted_services.h"
#include "support/kopt_process.h"
#include "support/resealed_manifest.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class RunLedger : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    m_services = m_gpu.services();
  }

  loop_settings settings() const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = 6;
    s.run_dir = m_run_dir;
    s.memory_db = m_memory;
    return s;
  }

  // Writes version `speed` and names `tag` in the previous iteration's proposal, then runs a step.
  step_outcome next(double speed, const std::string& tag) {
    testing::hand_over_version(m_kernel, m_run_dir, softmax_version(speed, "// " + tag), {tag});
    return run_loop_step(settings(), m_services);
  }

  // v0, then v1 (faster: the best) and v2 (slower).
  void three_versions() {
    m_run_dir = run_loop_step(settings(), m_services).run_dir;
    next(0.8, "retile_64");
    next(0.95, "unroll_4");
  }

  // The next step is refused before it measures anything, naming `file`.
  void expect_refused_naming(const std::string& file) {
    const int benches = m_gpu.bench_calls;
    try {
      next(0.5, "vectorized_float4_io");
      FAIL() << "a run folder changed outside kopt was trusted (" << file << ")";
    } catch (const error& e) {
      EXPECT_NE(e.headline().find("changed outside kopt: " + file + " "), std::string::npos) << e.headline();
    }
    EXPECT_EQ(m_gpu.bench_calls, benches) << "measured before the check";
    EXPECT_EQ(read_run_manifest(m_run_dir).iterations.size(), 3u);
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  fs::path m_memory = m_work.path() / "memory.db";
  scripted_gpu m_gpu;
  loop_services m_services;
};

TEST_F(RunLedger, AnUntouchedRunGoesOnAndIsVerified) {
  three_versions();
  const step_outcome v3 = next(0.7, "vectorized_float4_io");
  EXPECT_EQ(v3.run_check.status, "verified");
  EXPECT_EQ(v3.manifest.best, 3);
}

TEST_F(RunLedger, AManifestForgedWithARecomputedChecksumIsRefused) {
  three_versions();
  kopt::testing::make_last_version_the_best(m_run_dir);
  ASSERT_EQ(read_run_manifest(m_run_dir).best, 2) << "the forgery passes the manifest's own checksum";
  expect_refused_naming("run_manifest.json");
}

TEST_F(RunLedger, AnEarlierVersionsLibraryEditedAndResealedInTheManifestIsCaught) {
  three_versions();
  // v0 is neither the best nor the next one's parent: nothing else would load it again.
  const fs::path library = iteration_dir(m_run_dir, 0) / "kernel_library.so";
  ASSERT_TRUE(fs::exists(library));
  write_file_atomic(library, "a slower incumbent");
  kopt::testing::forge_manifest(m_run_dir, [](json& m) {
    m["iterations"][0]["library_sha256"] = sha256_hex("a slower incumbent");
  });
  expect_refused_naming("run_manifest.json");
}

TEST_F(RunLedger, AnEarlierVersionsLibraryEditedAloneIsNamed) {
  three_versions();
  write_file_atomic(iteration_dir(m_run_dir, 0) / "kernel_library.so", "a slower incumbent");
  expect_refused_naming("iter_v0/kernel_library.so");
}

TEST_F(RunLedger, AnEarlierSnapshotEditedIsNamed) {
  three_versions();
  const fs::path snapshot = iteration_dir(m_run_dir, 1) / "softmax_v1.cu";
  write_file_atomic(snapshot, read_text_file(snapshot) + "// not what was measured\n");
  expect_refused_naming("iter_v1/softmax_v1.cu");
}

TEST_F(RunLedger, TheProposalOfAnotherIterationEditedIsNamed) {
  three_versions();
  const fs::path proposal = iteration_dir(m_run_dir, 0) / "optimization_proposal.md";
  std::string text = read_text_file(proposal);
  text.replace(text.find("- retile_64"), 11, "- unroll_4");
  write_file_atomic(proposal, text);
  expect_refused_naming("iter_v0/optimization_proposal.md");
}

TEST_F(RunLedger, ARecordedFileRemovedIsNamed) {
  three_versions();
  fs::remove(iteration_dir(m_run_dir, 2) / "benchmark_result.json");
  expect_refused_naming("iter_v2/benchmark_result.json");
}

// The current proposal is the agent's to fill, and what kopt writes beside the record (the
// summaries) is not the record: neither is refused.
TEST_F(RunLedger, TheProposalToFillAndTheSummariesAreNotTheRecord) {
  three_versions();
  write_file_atomic(m_run_dir / "final_summary.md", "edited");
  write_file_atomic(iteration_dir(m_run_dir, 2) / "iteration_summary.md", "edited");
  EXPECT_EQ(next(0.7, "vectorized_float4_io").run_check.status, "verified");
}

// Another memory (another machine, or --memory-db changed): the run goes on, said unverified,
// and is recorded in that memory from then on.
TEST_F(RunLedger, ARunTheLedgerDoesNotKnowIsUnverifiedThenRecorded) {
  three_versions();
  m_memory = m_work.path() / "other_memory.db";
  EXPECT_EQ(next(0.7, "vectorized_float4_io").run_check.status, "unverified");
  EXPECT_EQ(next(0.9, "warp_shuffle").run_check.status, "verified");
}

TEST_F(RunLedger, ARunCopiedToAnotherFolderIsUnverifiedThere) {
  three_versions();
  const fs::path copy = m_work.path() / "copied_run";
  fs::copy(m_run_dir, copy, fs::copy_options::recursive);
  fs::remove(copy / ".kopt-loop.lock");
  m_run_dir = copy;
  EXPECT_EQ(next(0.7, "vectorized_float4_io").run_check.status, "unverified");
}

// A new run started in the folder of one the ledger knows (the old one removed) is that new run.
TEST_F(RunLedger, ANewRunInTheFolderOfAnEarlierOneIsNotTakenForTampering) {
  m_run_dir = m_work.path() / "named_run";
  loop_settings s = settings();
  s.new_run = true;
  run_loop_step(s, m_services);
  next(0.8, "retile_64");
  fs::remove_all(m_run_dir);
  write_file_atomic(m_kernel, softmax_version(1.0));
  run_loop_step(s, m_services);
  EXPECT_EQ(next(0.8, "retile_64").run_check.status, "verified");
}

}  // namespace
}  // namespace kopt::loop
