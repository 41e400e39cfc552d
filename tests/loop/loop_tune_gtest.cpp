// kopt loop --tune on the CPU: a version that declares tune(...) parameters is tuned by kopt tune
// itself (its configurations judged and timed through a recorded worker) before the loop judges
// it at the winning values. The manifest, the iteration's summary, the next proposal and the
// memory record the values; the snapshot has them written in while the kernel file keeps what the
// agent wrote; a version whose every configuration fails is rejected with the tune's reason.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/agent_loop.h"
#include "loop/loop_step.h"
#include "loop/run_manifest.h"
#include "loop/run_directory.h"
#include "loop/version_tuning.h"
#include "memory/memory_store.h"
#include "pipeline/recorded_worker.h"
#include "scripted_services.h"
#include "support/kopt_process.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

class LoopTune : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1);
    m_kernel = m_work.write("tiled_add.cu", version(1.0));
    fs::copy_file(kopt::testing::source_dir() / "examples" / "vector_add_ref.cu",
                  m_work.path() / "vector_add_ref.cu");
    m_services = m_gpu.services();
    m_services.tune = [this](const tune::tune_request& request) {
      ++m_tunes;
      if (m_machine_fails) throw error("the GPU stopped answering (recorded)");
      pipeline::recorded_worker worker(
          pipeline::recorded_h200(),
          m_all_wrong ? pipeline::two_children(3.0f)
                      : pipeline::by_configuration(pipeline::tunable_vector_add_medians()));
      pipeline::time_turns(worker, "BLOCK=128 VEC=2");
      return tune::run_tune(request, worker);
    };
  }

  static std::string version(double speed, const std::string& extra = "") {
    return fmt::format("// speed: {}\n{}\n", speed, extra) +
           pipeline::tunable_vector_add(
               (kopt::testing::source_dir() / "examples" / "vector_add.cu").string());
  }

  loop_settings settings() const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.ref = m_work.path() / "vector_add_ref.cu";
    s.target.dims = {{"N", "1048576"}};
    s.max_iterations = 4;
    s.run_dir = m_run_dir;
    s.memory_db = m_work.path() / "memory.db";
    s.tune = loop_tuning{};
    return s;
  }

  // Hands `source` over as the next version with `tags`, then runs a step.
  step_outcome next(const std::string& source, const std::vector<std::string>& tags) {
    testing::hand_over_version(m_kernel, m_run_dir, source, tags);
    return run_loop_step(settings(), m_services);
  }

  step_outcome first() {
    step_outcome v0 = run_loop_step(settings(), m_services);
    m_run_dir = v0.run_dir;
    return v0;
  }

  kopt::testing::scratch_dir m_cache;
  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  testing::scripted_gpu m_gpu;
  loop_services m_services;
  int m_tunes = 0;
  bool m_all_wrong = false;
  bool m_machine_fails = false;
};

// --candidates K with --tune: each candidate is tuned before it is judged, is its tuned text from
// then on (beside the agent's file), and the chosen one's tuned text is the iteration's snapshot.
TEST_F(LoopTune, EachCandidateOfARoundIsTunedAndTheChosenOnesTunedTextIsTheIterationsSnapshot) {
  const fs::path agent = m_work.write("agent.sh",
                                      "#!/bin/sh\n"
                                      "cp \"$(dirname \"$0\")/versions/\"* \"$KOPT_CANDIDATES_DIR\" || exit 3\n");
  m_work.write("versions/cand_1.cu", version(0.8, "// c1"));
  m_work.write("versions/cand_1.md", "## Plan\n\nretile\n\n## Strategy tags\n\n- retile_64\n");
  m_work.write("versions/cand_2.cu", version(1.3, "// c2"));
  m_work.write("versions/cand_2.md", "## Plan\n\nvectorize\n\n## Strategy tags\n\n- vectorized_float4_io\n");
  agent_settings a;
  a.command = "sh " + agent.string();
  a.timeout = std::chrono::seconds(20);
  a.candidates = 2;
  a.patience = 100;
  loop_settings s = settings();
  s.max_iterations = 1;
  const agent_loop_outcome out = run_agent_loop(s, a, m_services);
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 2U);
  EXPECT_EQ(m_tunes, 3) << "v0 and each candidate";
  const iteration_record& v1 = m.iterations[1];
  ASSERT_EQ(v1.candidates.size(), 2U);
  for (const candidate_record& c : v1.candidates) {
    ASSERT_TRUE(c.tuned.has_value()) << c.candidate;
    EXPECT_EQ(c.tuned->defines, (std::vector<std::string>{"BLOCK=128", "VEC=2"}));
    EXPECT_EQ(fs::path(c.snapshot).filename().string().find("_tuned.cu"), fs::path(c.snapshot).filename().string().size() - 9)
        << c.snapshot;
    const std::string tuned = read_text_file(out.last.run_dir / c.snapshot);
    EXPECT_EQ(c.source_sha256, sha256_hex(tuned)) << "the manifest names the tuned text";
    EXPECT_NE(tuned.find("#define BLOCK 128"), std::string::npos);
    EXPECT_NE(c.written_sha256(), c.source_sha256) << "the agent's text is kept apart";
    EXPECT_NE(c.tuned->tune_result.find(fmt::format("cand_{}/tune_", c.candidate)), std::string::npos)
        << c.tuned->tune_result;
  }
  ASSERT_EQ(v1.chosen_candidate, 1);
  EXPECT_EQ(enum_name(v1.outcome), "positive") << v1.reason;
  const std::string snapshot = read_text_file(out.last.run_dir / v1.snapshot);
  EXPECT_EQ(snapshot, read_text_file(out.last.run_dir / v1.candidates[0].snapshot));
  EXPECT_EQ(v1.source_sha256, sha256_hex(snapshot));
  EXPECT_EQ(read_text_file(m_kernel), snapshot) << "the kernel file holds the best, its values written in";
  for (const auto& defines : m_gpu.bench_defines) {
    EXPECT_EQ(defines, (std::vector<std::string>{"BLOCK=128", "VEC=2"})) << "measured at the winning values";
  }
}

TEST_F(LoopTune, AVersionIsJudgedAtTheWinningValuesWrittenIntoItsSnapshot) {
  const std::string written = read_text_file(m_kernel);
  const step_outcome v0 = first();
  ASSERT_TRUE(v0.record.has_value());
  const iteration_record& r = *v0.record;
  EXPECT_EQ(r.outcome, version_outcome::baseline) << r.reason;
  ASSERT_TRUE(r.tuned.has_value());
  EXPECT_EQ(r.tuned->defines, (std::vector<std::string>{"BLOCK=128", "VEC=2"}));
  EXPECT_EQ(r.tuned->measured, 5);
  EXPECT_EQ(r.tuned->allowed, 5);
  EXPECT_TRUE(fs::exists(v0.run_dir / r.tuned->tune_result)) << r.tuned->tune_result;
  EXPECT_EQ(r.tuned->tune_result.rfind("iter_v0/tune_", 0), 0U)
      << "the tune folder in the iteration's folder";

  const std::string snapshot = read_text_file(v0.run_dir / r.snapshot);
  EXPECT_NE(snapshot.find("#ifndef BLOCK\n#define BLOCK 128\n#endif"), std::string::npos)
      << snapshot.substr(0, 300);
  EXPECT_NE(snapshot.find("#ifndef VEC\n#define VEC 2\n#endif"), std::string::npos);
  EXPECT_EQ(r.source_sha256, sha256_hex(snapshot));
  EXPECT_EQ(read_text_file(m_kernel), written) << "the kernel file keeps what the agent wrote";
  EXPECT_EQ(r.written_sha256(), sha256_hex(written));

  ASSERT_FALSE(m_gpu.bench_defines.empty());
  for (const auto& defines : m_gpu.bench_defines) {
    EXPECT_EQ(defines, (std::vector<std::string>{"BLOCK=128", "VEC=2"})) << "measured at the winning values";
  }
  const std::string summary = read_text_file(iteration_dir(v0.run_dir, 0) / "iteration_summary.md");
  EXPECT_NE(
      summary.find("tuned values (kopt loop --tune, written into the version): BLOCK=128 VEC=2 (5 of 5"),
      std::string::npos)
      << summary;
  const std::string proposal = read_text_file(iteration_dir(v0.run_dir, 0) / "optimization_proposal.md");
  EXPECT_NE(proposal.find("BLOCK=128 VEC=2"), std::string::npos) << proposal.substr(0, 800);
}

// The loop keeps the agent's text with the values written in: a header beside the kernel stays
// included by the name the agent wrote, where the tune's own copy in its run folder names it by
// its absolute path (that copy is built there).
TEST_F(LoopTune, TheKeptVersionIncludesItsHeadersAsTheAgentWroteThem) {
  const fs::path header = m_work.write("add_note.cuh", "// a header beside the kernel\n");
  write_file_atomic(m_kernel, version(1.0, "#include \"add_note.cuh\""));
  const step_outcome v0 = first();
  ASSERT_TRUE(v0.record.has_value());
  const iteration_record& r = *v0.record;
  ASSERT_TRUE(r.tuned.has_value()) << r.reason;
  const std::string snapshot = read_text_file(v0.run_dir / r.snapshot);
  EXPECT_NE(snapshot.find("\n#include \"add_note.cuh\"\n"), std::string::npos) << snapshot.substr(0, 400);
  EXPECT_EQ(snapshot.find(header.string()), std::string::npos) << snapshot.substr(0, 400);
  EXPECT_NE(snapshot.find("#ifndef BLOCK\n#define BLOCK 128\n#endif"), std::string::npos);
  const fs::path tune_copy = (v0.run_dir / r.tuned->tune_result).parent_path() / "tiled_add_tuned.cu";
  EXPECT_NE(read_text_file(tune_copy).find("#include \"" + fs::weakly_canonical(header).string() + "\""),
            std::string::npos)
      << read_text_file(tune_copy).substr(0, 400);
}

// A tuned Triton module is measured from kopt's copy of its snapshot beside the kernel, where it
// imports its siblings as the kernel does, and is kept as the agent's text with the pin: not the
// tune's copy, whose line puts the kernel's folder on Python's import path by its absolute path.
TEST_F(LoopTune, ATunedTritonModuleIsMeasuredAndComparedBesideTheKernelAndKeptAsTheAgentWroteIt) {
  const std::string written =
      "# kopt: tune(BLOCK, 64, 128)\nimport helpers\nBLOCK = 64\n\n\ndef run_kernel(**_):\n    pass\n";
  m_kernel = m_work.write("scale.py", written);
  std::vector<std::pair<fs::path, std::string>> benched;  // the file each bench measured, and its text
  const auto scripted_bench = m_services.bench;
  m_services.bench = [&](const pipeline::bench_request& request) {
    benched.emplace_back(request.target.kernel, read_text_file(request.target.kernel));
    return scripted_bench(request);
  };
  m_services.tune = [](const tune::tune_request& request) {
    tune::tune_outcome outcome;
    outcome.run_dir = request.runs_root / "tune_recorded";
    tune::tune_winner winner{
        "BLOCK=128", {"BLOCK=128"}, 0.1, (outcome.run_dir / "scale_tuned.py").string(), "", {}};
    write_file_atomic(winner.tuned_file, "import sys as _kopt_sys; _kopt_sys.path.append(\"/elsewhere\")\n");
    outcome.result.allowed = 2;
    outcome.result.measured.resize(2);
    outcome.result.winner = winner;
    return outcome;
  };
  loop_settings s = settings();
  s.target.ref.clear();
  const step_outcome v0 = run_loop_step(s, m_services);
  ASSERT_TRUE(v0.record.has_value());
  const iteration_record& r = *v0.record;
  EXPECT_EQ(r.outcome, version_outcome::baseline) << r.reason;
  ASSERT_TRUE(r.tuned.has_value());

  const std::string snapshot = read_text_file(v0.run_dir / r.snapshot);
  EXPECT_EQ(snapshot.rfind(written, 0), 0U) << "the agent's text first, as written:\n" << snapshot;
  EXPECT_NE(snapshot.find("_kopt_pin(globals(), {\"BLOCK\": 128})"), std::string::npos) << snapshot;
  EXPECT_EQ(snapshot.find("_kopt_sys"), std::string::npos) << snapshot;
  EXPECT_EQ(read_text_file(m_kernel), written) << "the kernel file keeps what the agent wrote";

  ASSERT_FALSE(benched.empty());
  for (const auto& [file, text] : benched) {
    EXPECT_EQ(file, m_work.path() / ".scale.kopt-tuned.py") << "measured beside the kernel";
    EXPECT_EQ(text, snapshot);
  }
  EXPECT_FALSE(fs::exists(m_work.path() / ".scale.kopt-tuned.py")) << "kopt's copy is gone once measured";

  // The next version is compared in turns with v0, both from copies of their snapshots beside the
  // kernel (where their imports resolve), gone once compared.
  std::vector<std::pair<fs::path, std::string>> compared;
  const auto scripted_compare = m_services.compare;
  m_services.compare = [&](const pipeline::comparison_request& request) {
    for (const fs::path& file : {request.candidate.source, request.incumbent.source})
      compared.emplace_back(file, read_text_file(file));
    return scripted_compare(request);
  };
  testing::hand_over_version(m_kernel, v0.run_dir, written + "# // speed: 0.8\n", {"bigger_blocks"});
  s.run_dir = v0.run_dir;
  const step_outcome v1 = run_loop_step(s, m_services);
  ASSERT_TRUE(v1.record.has_value());
  EXPECT_EQ(v1.record->outcome, version_outcome::positive) << v1.record->reason;
  ASSERT_EQ(compared.size(), 2U);
  EXPECT_EQ(compared[0].first.parent_path(), m_work.path());
  EXPECT_EQ(compared[1].first.parent_path(), m_work.path());
  EXPECT_EQ(compared[0].second, read_text_file(v1.run_dir / v1.record->snapshot));
  EXPECT_EQ(compared[1].second, snapshot);
  for (const auto& [file, text] : compared) EXPECT_FALSE(fs::exists(file)) << file;
}

TEST_F(LoopTune, TheMemoryRecordsTheTunedValuesUnderTheStrategysOwnFingerprint) {
  first();
  const step_outcome v1 = next(version(0.8), {"vectorized_loads"});
  ASSERT_TRUE(v1.record.has_value());
  EXPECT_EQ(v1.record->outcome, version_outcome::positive) << v1.record->reason;
  ASSERT_TRUE(v1.record->tuned.has_value());
  EXPECT_EQ(m_tunes, 2);
  const auto history = memory::memory_store::open(settings().memory_db).history(v1.record->fingerprint);
  ASSERT_EQ(history.size(), 1U);
  EXPECT_EQ(history.front().evidence["tuned_defines"], json::array({"BLOCK=128", "VEC=2"}));
  EXPECT_EQ(history.front().tags, std::vector<std::string>{"vectorized_loads"})
      << "the fingerprint stays the tags";
}

TEST_F(LoopTune, AVersionWhoseEveryConfigurationFailsIsRejectedWithTheTunesReasonAndBlocked) {
  first();
  m_all_wrong = true;
  const std::string written = version(0.5);
  const step_outcome v1 = next(written, {"wrong_everywhere"});
  ASSERT_TRUE(v1.record.has_value());
  EXPECT_EQ(v1.record->outcome, version_outcome::rejected);
  EXPECT_EQ(v1.record->reason.rfind(
                "tune: none of the 5 configurations measured passed the judge (see iter_v1/tune_", 0),
            0U)
      << v1.record->reason;
  EXPECT_FALSE(v1.record->tuned.has_value());
  EXPECT_EQ(read_text_file(v1.run_dir / v1.record->snapshot), written) << "kept as written";
  const run_manifest m = read_run_manifest(v1.run_dir);
  EXPECT_EQ(m.best, 0);
  EXPECT_NE(std::find(m.blocked.begin(), m.blocked.end(), v1.record->fingerprint), m.blocked.end());
}

TEST_F(LoopTune, AVersionWhoseRestrictionsLeaveNothingIsRejectedBeforeAnythingIsMeasured) {
  first();
  const int tunes_before = m_tunes;
  const step_outcome v1 = next(version(0.5, "// kopt: restrict(BLOCK > 4096)"), {"nothing_allowed"});
  ASSERT_TRUE(v1.record.has_value());
  EXPECT_EQ(v1.record->outcome, version_outcome::rejected);
  EXPECT_NE(v1.record->reason.find("the restrict() conditions leave none of the 6 configurations at the run's "
                                   "dimensions"),
            std::string::npos)
      << v1.record->reason;
  EXPECT_EQ(m_tunes, tunes_before) << "nothing was tuned";
}

// A machine that fails during the tune is not the version's fault: the call stops, nothing is
// recorded or blocked, and the next call evaluates the same version.
TEST_F(LoopTune, AMachineErrorDuringTheTuneStopsTheCallAndTheNextEvaluatesTheVersionAgain) {
  first();
  m_machine_fails = true;
  testing::hand_over_version(m_kernel, m_run_dir, version(0.5), {"wider_blocks"});
  EXPECT_THROW(run_loop_step(settings(), m_services), error);
  const run_manifest stopped = read_run_manifest(m_run_dir);
  EXPECT_EQ(stopped.iterations.size(), 1U) << "no record of v1";
  EXPECT_TRUE(stopped.blocked.empty());
  m_machine_fails = false;
  const step_outcome v1 = run_loop_step(settings(), m_services);
  ASSERT_TRUE(v1.record.has_value());
  EXPECT_EQ(v1.record->iteration, 1);
  EXPECT_NE(v1.record->outcome, version_outcome::rejected) << v1.record->reason;
  EXPECT_TRUE(v1.record->tuned.has_value());
}

TEST_F(LoopTune, AVersionWithoutTuneParametersIsMeasuredAsWritten) {
  const std::string plain =
      "// speed: 1\n" + read_text_file(kopt::testing::source_dir() / "examples" / "vector_add.cu");
  write_file_atomic(m_kernel, plain);
  const step_outcome v0 = first();
  ASSERT_TRUE(v0.record.has_value());
  EXPECT_EQ(v0.record->outcome, version_outcome::baseline) << v0.record->reason;
  EXPECT_FALSE(v0.record->tuned.has_value());
  EXPECT_EQ(m_tunes, 0);
  EXPECT_EQ(read_text_file(v0.run_dir / v0.record->snapshot), plain);
  for (const auto& defines : m_gpu.bench_defines) EXPECT_TRUE(defines.empty());
}

}  // namespace
}  // namespace kopt::loop

namespace kopt::loop {
namespace {

// A tuned CUDA version is measured from the kernel file with its values as -D; a tuned Triton
// module has no build to take them, so it is measured from its snapshot's text (which pins them),
// in a file of kopt's beside the kernel that lives as long as the measurement.
TEST(TunedMeasurement, ACudaVersionGetsDefinesAndATritonModuleIsMeasuredFromItsSnapshotBesideTheKernel) {
  const kopt::testing::scratch_dir dir;
  tuned_values tuned;
  tuned.defines = {"BLOCK=128"};
  loop_settings cuda;
  cuda.target.kernel = dir.write("k.cu", "extern \"C\" void solve() {}\n");
  const tuned_measurement cuda_measured(cuda, tuned, "// kopt tune: BLOCK=128\n", "cuda");
  EXPECT_EQ(cuda_measured.settings().target.kernel, cuda.target.kernel);
  EXPECT_EQ(cuda_measured.settings().target.defines, (std::vector<std::string>{"BLOCK=128"}));

  loop_settings triton;
  triton.target.kernel = dir.write("k.py", "def run_kernel(**_): pass\n");
  const std::string pinned = "def run_kernel(**_): pass\n_kopt_pin(globals(), {})\n";
  fs::path measured_file;
  {
    const tuned_measurement triton_measured(triton, tuned, pinned, "triton");
    measured_file = triton_measured.settings().target.kernel;
    EXPECT_EQ(measured_file, dir.path() / ".k.kopt-tuned.py");
    EXPECT_EQ(read_text_file(measured_file), pinned);
    EXPECT_TRUE(triton_measured.settings().target.defines.empty());
    EXPECT_EQ(read_text_file(triton.target.kernel), "def run_kernel(**_): pass\n")
        << "the agent's file is left alone";
  }
  EXPECT_FALSE(fs::exists(measured_file)) << "kopt's copy goes with the measurement";
  EXPECT_EQ(tuned_measurement(triton, std::nullopt, pinned, "triton").settings().target.kernel,
            triton.target.kernel)
      << "an untuned version is measured as written";
}

}  // namespace
}  // namespace kopt::loop
