// --candidates K on the CPU: a real agent process (a shell script) hands over prepared
// candidates; measurements are scripted. Each candidate is judged and compared with the same
// best, each outcome reaches the memory, the largest improvement becomes the best, and a round
// killed in the middle resumes without measuring again what it had committed.
#include "loop/candidate_round.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/agent_loop.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "memory/memory_store.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class CandidateRound : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    // The agent: copies what was prepared for the next iteration into the candidates folder.
    m_agent = m_work.write("agent.sh",
                           "#!/bin/sh\n"
                           "echo \"K=$KOPT_CANDIDATES dir=$KOPT_CANDIDATES_DIR\"\n"
                           "for f in \"$(dirname \"$0\")/versions/v$KOPT_NEXT_ITERATION/\"*; do\n"
                           "  if [ -e \"$f\" ]; then cp \"$f\" \"$KOPT_CANDIDATES_DIR\" || exit 3; fi\n"
                           "done\n");
  }

  // Candidate j of iteration `iteration`: a version of `speed` (and `extra`) with one tag.
  void prepare(std::int64_t iteration, int j, double speed, const std::string& tag,
               const std::string& extra = "") {
    const std::string dir = fmt::format("versions/v{}/", iteration);
    m_work.write(dir + fmt::format("cand_{}.cu", j),
                 softmax_version(speed, fmt::format("// v{} c{}\n{}", iteration, j, extra)));
    m_work.write(dir + fmt::format("cand_{}.md", j),
                 fmt::format("## Plan\n\ntry {}\n\n## Strategy tags\n\n- {}\n", tag, tag));
  }

  loop_settings settings(std::int64_t max_iterations) const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = max_iterations;
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  agent_settings agent(int candidates) const {
    agent_settings a;
    a.command = "sh " + m_agent.string();
    a.timeout = std::chrono::seconds(20);
    a.candidates = candidates;
    a.patience = 100;
    return a;
  }

  std::vector<memory::recorded_outcome> outcomes() const {
    return memory::memory_store::open(m_work.path() / "memory.db").all();
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_agent;
  scripted_gpu m_gpu;
};

TEST_F(CandidateRound, ThePositiveCandidateBecomesTheBestAndEveryCandidateHasItsOutcome) {
  prepare(1, 1, 1.3, "retile_64");
  prepare(1, 2, 0.8, "vectorized_float4_io");
  prepare(1, 3, 0.5, "skip_max_pass", "// fails validation");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(3), m_gpu.services());
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const fs::path run = out.last.run_dir;
  const run_manifest m = read_run_manifest(run);
  ASSERT_EQ(m.iterations.size(), 2u);
  EXPECT_FALSE(m.open_round);
  const iteration_record& v1 = m.iterations[1];
  ASSERT_EQ(v1.candidates.size(), 3u);
  EXPECT_EQ(enum_name(v1.candidates[0].outcome), "negative") << v1.candidates[0].reason;
  EXPECT_EQ(enum_name(v1.candidates[1].outcome), "positive") << v1.candidates[1].reason;
  EXPECT_EQ(enum_name(v1.candidates[2].outcome), "rejected");
  EXPECT_NE(v1.candidates[2].reason.find("validation failed (seed 0)"), std::string::npos)
      << v1.candidates[2].reason;
  for (const auto& c : v1.candidates) {
    EXPECT_EQ(c.parent, 0) << "every candidate is compared with the same best";
  }
  EXPECT_EQ(v1.chosen_candidate, 2);
  EXPECT_EQ(enum_name(v1.outcome), "positive");
  EXPECT_EQ(v1.tags, std::vector<std::string>{"vectorized_float4_io"});
  EXPECT_EQ(v1.reason.rfind("cand_2 of 3: ", 0), 0u) << v1.reason;
  EXPECT_EQ(m.best, 1);
  EXPECT_EQ(m.blocked,
            (std::vector<std::string>{v1.candidates[0].fingerprint, v1.candidates[2].fingerprint}));

  // One outcome per candidate in the memory, keyed by candidate.
  const auto recorded = outcomes();
  ASSERT_EQ(recorded.size(), 3u);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(recorded[j].iteration, 1);
    EXPECT_EQ(recorded[j].candidate, fmt::format("cand_{}", j + 1));
    EXPECT_EQ(recorded[j].fingerprint, v1.candidates[j].fingerprint);
    EXPECT_EQ(recorded[j].outcome, enum_name(v1.candidates[j].outcome));
  }

  // Each candidate's evidence in its folder; the chosen one's where a single version's would be.
  for (int j = 1; j <= 3; ++j) {
    const fs::path dir = candidate_dir(run, 1, j);
    EXPECT_TRUE(fs::exists(dir / fmt::format("softmax_v1_c{}.cu", j))) << dir;
    for (const char* file :
         {"benchmark_result.json", "benchmark.stdout.txt", "candidate_proposal.md", "candidate_summary.md"}) {
      EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
    }
    // Only the positive one is profiled: the slower one's bench and comparison are its evidence,
    // and the rejected one never reached a comparison.
    EXPECT_EQ(fs::exists(dir / "full.ncu-rep"), j == 2) << dir;
  }
  for (const char* file :
       {"softmax_v1.cu", "benchmark_result.json", "full.ncu-rep", "ncu_raw.csv", "analysis.md",
        "analysis.json", "iteration_summary.md", "optimization_proposal.md"}) {
    EXPECT_TRUE(fs::exists(run / "iter_v1" / file)) << file;
  }
  EXPECT_EQ(read_text_file(run / "iter_v1" / "benchmark_result.json"),
            read_text_file(candidate_dir(run, 1, 2) / "benchmark_result.json"));
  EXPECT_EQ(read_text_file(run / v1.snapshot), read_text_file(candidate_dir(run, 1, 2) / "softmax_v1_c2.cu"));
  EXPECT_EQ(sha256_hex(read_text_file(m_kernel)), v1.source_sha256)
      << "the kernel file holds the best version";

  const std::string summary = read_text_file(run / "final_summary.md");
  for (const char* row :
       {"| 1 cand_1 | retile_64 | negative |", "| 1 cand_2 | vectorized_float4_io | positive (chosen) |",
        "| 1 cand_3 | skip_max_pass | rejected |"}) {
    EXPECT_NE(summary.find(row), std::string::npos) << row << "\n" << summary;
  }
  const std::string iteration = read_text_file(run / "iter_v1" / "iteration_summary.md");
  EXPECT_NE(iteration.find("| cand_2 | vectorized_float4_io | positive (chosen) |"), std::string::npos)
      << iteration;
  const std::string said = read_text_file(run / "iter_v0" / "agent.stdout.txt");
  EXPECT_EQ(said, "K=3 dir=" + handover_dir(run, 0).string() + "\n");
}

TEST_F(CandidateRound, OfTwoPositiveCandidatesTheLargerImprovementWins) {
  prepare(1, 1, 0.9, "a");
  prepare(1, 2, 0.6, "b");
  prepare(2, 1, 0.5, "c");
  prepare(2, 3, 0.4, "d");
  const agent_loop_outcome out = run_agent_loop(settings(2), agent(3), m_gpu.services());
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 3u);
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  ASSERT_EQ(m.iterations[2].candidates.size(), 2u);
  EXPECT_EQ(m.iterations[2].candidates[1].candidate, 3) << "candidates keep the agent's numbers";
  for (const auto& c : m.iterations[2].candidates) EXPECT_EQ(c.parent, 1) << "built from the new best";
  EXPECT_EQ(m.iterations[2].chosen_candidate, 3);
  EXPECT_EQ(m.best, 2);
  EXPECT_EQ(outcomes().size(), 4u);
}

TEST_F(CandidateRound, ARoundWithoutAWinKeepsTheBest) {
  prepare(1, 1, 1.0, "unchanged");
  prepare(1, 2, 1.4, "slower");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(2), m_gpu.services());
  const run_manifest m = read_run_manifest(out.last.run_dir);
  EXPECT_EQ(m.best, 0);
  EXPECT_EQ(m.iterations[1].chosen_candidate, 1) << "the fastest that passed";
  EXPECT_EQ(enum_name(m.iterations[1].outcome), "neutral");
  EXPECT_EQ(sha256_hex(read_text_file(m_kernel)), m.iterations[0].source_sha256)
      << "the kernel file holds the best";
}

TEST_F(CandidateRound, WithNoBestYetTheFastestCandidateThatPassesBecomesTheBaseline) {
  write_file_atomic(m_kernel, softmax_version(1.0, "// fails validation"));
  prepare(1, 1, 0.9, "fix_a");
  prepare(1, 2, 0.7, "fix_b");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(2), m_gpu.services());
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  EXPECT_EQ(enum_name(m.iterations[0].outcome), "rejected");
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  EXPECT_EQ(enum_name(m.iterations[1].outcome), "baseline");
  EXPECT_EQ(m.best, 1);
  EXPECT_NE(m.iterations[1].candidates[0].reason.find("cand_2 was faster and became the baseline"),
            std::string::npos);
  const auto recorded = outcomes();
  ASSERT_EQ(recorded.size(), 1u) << "v0's rejection only: a baseline is no strategy's outcome";
  EXPECT_EQ(recorded[0].iteration, 0);
}

TEST_F(CandidateRound, AStrategyBlockedByAnEarlierCandidateRejectsALaterOneWithoutMeasuring) {
  prepare(1, 1, 1.3, "retile_64");
  prepare(1, 2, 0.7, "retile_64");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(2), m_gpu.services());
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations[1].candidates.size(), 2u);
  EXPECT_EQ(enum_name(m.iterations[1].candidates[1].outcome), "rejected");
  EXPECT_NE(m.iterations[1].candidates[1].reason.find("blocked strategy reused"), std::string::npos);
  EXPECT_EQ(m_gpu.bench_calls, 2) << "v0 and the first candidate";
}

TEST_F(CandidateRound, ACandidateThatDeclaresAnotherProblemEndsTheRunAfterItsRound) {
  prepare(1, 1, 0.8, "faster");
  std::string half = softmax_version(0.5, "// v1 c2");
  const std::string annotation = "// kopt: input[rows*cols] output[rows*cols]";
  half.replace(half.find(annotation), annotation.size(), "// kopt: input[rows*cols/2] output[rows*cols/2]");
  m_work.write("versions/v1/cand_2.cu", half);
  m_work.write("versions/v1/cand_2.md", "## Strategy tags\n- half_the_work\n");
  const agent_loop_outcome out = run_agent_loop(settings(3), agent(2), m_gpu.services());
  EXPECT_TRUE(out.failed);
  EXPECT_EQ(out.stop_reason.rfind("v1 changed the problem: cand_2: problem changed", 0), 0u) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 2u) << "the round is closed, and no other begins";
  EXPECT_FALSE(m.open_round);
  EXPECT_EQ(enum_name(m.iterations[1].candidates[1].outcome), "rejected");
  EXPECT_EQ(m.iterations[1].chosen_candidate, 1);
}

TEST_F(CandidateRound, AHandoverThatBreaksTheProtocolEndsTheLoopCleanly) {
  struct bad_case {
    std::vector<std::pair<std::string, std::string>> files;  // written into versions/v1/
    std::string expected;
  };
  const std::vector<bad_case> cases = {
      {{}, "the agent wrote no candidate into"},
      {{{"cand_1.cu", softmax_version(0.8)}}, "candidate 1 in"},
      {{{"cand_3.cu", softmax_version(0.8)}, {"cand_3.md", "## Strategy tags\n- x\n"}},
       "the agent left cand_3."},
      {{{"notes.txt", "x"}}, "the agent left notes.txt in"}};
  for (const bad_case& c : cases) {
    kopt::testing::scratch_dir work;
    const fs::path kernel = work.write("softmax.cu", softmax_version(1.0));
    fs::create_directories(work.path() / "versions" / "v1");
    for (const auto& [name, text] : c.files) work.write("versions/v1/" + name, text);
    work.write("agent.sh", read_text_file(m_agent));
    loop_settings s = settings(2);
    s.target.kernel = kernel;
    s.memory_db = work.path() / "memory.db";
    agent_settings a = agent(2);
    a.command = "sh " + (work.path() / "agent.sh").string();
    const agent_loop_outcome out = run_agent_loop(s, a, m_gpu.services());
    EXPECT_TRUE(out.failed);
    EXPECT_NE(out.stop_reason.find(c.expected), std::string::npos) << out.stop_reason;
    const run_manifest m = read_run_manifest(out.last.run_dir);
    EXPECT_EQ(m.iterations.size(), 1u);
    EXPECT_FALSE(m.open_round);
  }
}

TEST_F(CandidateRound, ARoundKilledMidwayResumesWithoutMeasuringCommittedCandidatesAgain) {
  prepare(1, 1, 0.8, "first");
  prepare(1, 2, 0.7, "second");
  prepare(1, 3, 1.2, "third");
  m_gpu.die_in_profile_of = "// v1 c2";
  EXPECT_THROW(run_agent_loop(settings(1), agent(3), m_gpu.services()), std::runtime_error);
  const fs::path run = fs::path(m_work.path() / "optimize_runs");
  ASSERT_EQ(std::distance(fs::directory_iterator(run), fs::directory_iterator()), 1);
  const fs::path run_dir = fs::directory_iterator(run)->path();
  const run_manifest killed = read_run_manifest(run_dir);
  ASSERT_TRUE(killed.open_round);
  ASSERT_EQ(killed.open_round->candidates.size(), 3u);
  EXPECT_EQ(enum_name(killed.open_round->candidates[0].outcome), "positive");
  EXPECT_EQ(enum_name(killed.open_round->candidates[1].outcome), "pending");
  EXPECT_EQ(killed.iterations.size(), 1u);
  ASSERT_EQ(outcomes().size(), 1u) << "the committed candidate's outcome is in the memory";

  m_gpu.die_in_profile_of.clear();
  const int benches = m_gpu.bench_calls;
  loop_settings s = settings(1);
  s.run_dir = run_dir;
  const agent_loop_outcome out = run_agent_loop(s, agent(3), m_gpu.services());
  EXPECT_FALSE(out.failed) << out.stop_reason;
  EXPECT_EQ(m_gpu.bench_calls - benches, 2) << "candidates 2 and 3 only";
  const run_manifest m = read_run_manifest(run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  EXPECT_FALSE(m.open_round);
  EXPECT_EQ(m.iterations[1].candidates[0].finished_at, killed.open_round->candidates[0].finished_at);
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  EXPECT_EQ(m.best, 1);
  EXPECT_EQ(outcomes().size(), 3u);
}

TEST_F(CandidateRound, AKilledRoundIsFinishedByAPlainCallToo) {
  prepare(1, 1, 0.8, "first");
  prepare(1, 2, 0.7, "second");
  m_gpu.die_in_profile_of = "// v1 c2";
  EXPECT_THROW(run_agent_loop(settings(1), agent(2), m_gpu.services()), std::runtime_error);
  const fs::path run_dir = fs::directory_iterator(m_work.path() / "optimize_runs")->path();
  m_gpu.die_in_profile_of.clear();
  write_file_atomic(m_kernel, "not a kernel: the round does not read the kernel file");
  loop_settings s = settings(1);
  s.run_dir = run_dir;
  const step_outcome step = run_loop_step(s, m_gpu.services());
  ASSERT_TRUE(step.record);
  EXPECT_EQ(step.record->iteration, 1);
  EXPECT_EQ(step.record->chosen_candidate, 2);
  EXPECT_FALSE(read_run_manifest(run_dir).open_round);
}

// The round's candidates on several GPUs at once (--gpus): each GPU a scripted one of its own.
class CandidateRoundOnGpus : public CandidateRound {
 protected:
  // The steps of GPU 0 (m_gpu) with `others` more GPUs, numbered 1..others.
  loop_services on_gpus(int others) {
    m_others.resize(static_cast<std::size_t>(others));
    loop_services steps = m_gpu.services();
    for (int g = 1; g <= others; ++g)
      steps.other_gpus.push_back({g, m_others[static_cast<std::size_t>(g - 1)].services()});
    return steps;
  }
  std::vector<std::string> outcomes_of(const iteration_record& round) const {
    std::vector<std::string> out;
    for (const auto& c : round.candidates) out.push_back(enum_name(c.outcome));
    return out;
  }
  bool work_files_left() const {
    for (const auto& entry : fs::directory_iterator(m_kernel.parent_path())) {
      if (entry.path().filename().string().rfind(".softmax.kopt-cand", 0) == 0) return true;
    }
    return false;
  }
  std::deque<scripted_gpu> m_others;  // a deque: the services keep pointers to their GPU
};

TEST_F(CandidateRoundOnGpus, TwoGpusGiveTheRoundTheOneGpuRoundGives) {
  prepare(1, 1, 1.3, "retile_64");
  prepare(1, 2, 0.8, "vectorized_float4_io");
  prepare(1, 3, 0.5, "skip_max_pass", "// fails validation");
  prepare(1, 4, 0.6, "two_rows_per_block");
  const agent_loop_outcome one = run_agent_loop(settings(1), agent(4), m_gpu.services());
  ASSERT_FALSE(one.failed) << one.stop_reason;
  const run_manifest a = read_run_manifest(one.last.run_dir);
  fs::remove_all(m_work.path() / "optimize_runs");
  fs::remove(m_work.path() / "memory.db");
  write_file_atomic(m_kernel, softmax_version(1.0));
  const int benches_on_0 = m_gpu.bench_calls;
  const int compares_on_0 = m_gpu.compare_calls;

  const agent_loop_outcome two = run_agent_loop(settings(1), agent(4), on_gpus(1));
  ASSERT_FALSE(two.failed) << two.stop_reason;
  const run_manifest b = read_run_manifest(two.last.run_dir);
  ASSERT_EQ(b.iterations.size(), 2u);
  EXPECT_EQ(outcomes_of(b.iterations[1]), outcomes_of(a.iterations[1]));
  EXPECT_EQ(outcomes_of(b.iterations[1]),
            (std::vector<std::string>{"negative", "positive", "rejected", "positive"}));
  EXPECT_EQ(b.iterations[1].chosen_candidate, a.iterations[1].chosen_candidate);
  EXPECT_EQ(b.iterations[1].chosen_candidate, 4);
  EXPECT_EQ(b.best, 1);
  EXPECT_EQ(b.blocked.size(), 2u);
  EXPECT_EQ(outcomes().size(), 4u) << "one outcome per candidate in the memory";
  EXPECT_GE(m_others[0].bench_calls, 1) << "the second GPU measured candidates";
  EXPECT_GE(m_gpu.bench_calls - benches_on_0, 2) << "v0 and at least one candidate on the first";
  EXPECT_EQ(m_gpu.bench_calls - benches_on_0 + m_others[0].bench_calls, 5) << "v0 and each candidate once";
  EXPECT_EQ(m_others[0].compare_calls + m_gpu.compare_calls - compares_on_0, 3)
      << "each candidate that passed the judge compared on the GPU it was measured on";
  EXPECT_EQ(sha256_hex(read_text_file(m_kernel)), b.iterations[1].source_sha256)
      << "the kernel file holds the best";
  EXPECT_FALSE(work_files_left());
}

TEST_F(CandidateRoundOnGpus, EightGpusTakeARoundOfThreeEachOnItsOwnGpu) {
  prepare(1, 1, 0.9, "a");
  prepare(1, 2, 0.7, "b");
  prepare(1, 3, 1.2, "c");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(3), on_gpus(7));
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  EXPECT_EQ(outcomes_of(m.iterations[1]), (std::vector<std::string>{"positive", "positive", "negative"}));
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  // v0 on GPU 0; the round's three handed out at once to the first three free GPUs.
  EXPECT_EQ(m_gpu.bench_calls, 2);
  EXPECT_EQ(m_others[0].bench_calls, 1);
  EXPECT_EQ(m_others[1].bench_calls, 1);
  for (std::size_t g = 2; g < 7; ++g) EXPECT_EQ(m_others[g].bench_calls, 0) << "GPU " << g + 1;
}

TEST_F(CandidateRoundOnGpus, AGpuThatFailsMidRoundIsDroppedAndTheRoundEndsOnTheOthers) {
  prepare(1, 1, 0.9, "a");
  prepare(1, 2, 0.7, "b");
  prepare(1, 3, 1.2, "c");
  loop_services steps = on_gpus(2);
  // GPU 1 falls off the bus: its measurement fails and the worker no longer lists it.
  steps.other_gpus[0].services.bench = [](const pipeline::bench_request&) -> pipeline::bench_outcome {
    throw error("the CUDA driver found no usable GPU: cuInit: CUDA_ERROR_NO_DEVICE");
  };
  steps.other_gpus[0].services.probe_gpus = [] { return env::gpu_probe_result{}; };
  std::vector<std::string> said;
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(3), steps,
                                                [&said](const std::string& line) { said.push_back(line); });
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  EXPECT_EQ(outcomes_of(m.iterations[1]), (std::vector<std::string>{"positive", "positive", "negative"}));
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  EXPECT_EQ(outcomes().size(), 3u);
  EXPECT_EQ(m_gpu.bench_calls + m_others[1].bench_calls, 4) << "v0 and the three candidates, none twice";
  const auto dropped = std::find_if(said.begin(), said.end(), [](const std::string& line) {
    return line.rfind("GPU 1 failed while it measured candidate 2", 0) == 0;
  });
  EXPECT_NE(dropped, said.end()) << "the user is told which GPU was dropped";
  EXPECT_FALSE(work_files_left());
}

TEST_F(CandidateRoundOnGpus, AnErrorOnAGpuThatStillAnswersLeavesTheRoundOpenForTheNextCall) {
  prepare(1, 1, 0.9, "a");
  prepare(1, 2, 0.7, "b");
  loop_services steps = on_gpus(1);
  steps.other_gpus[0].services.bench = [](const pipeline::bench_request&) -> pipeline::bench_outcome {
    throw error("the GPU lock of GPU 1 could not be taken");
  };
  steps.other_gpus[0].services.probe_gpus = [] {
    env::gpu_probe_result probe;
    probe.devices.resize(2);
    probe.devices[1].ordinal = 1;
    return probe;
  };
  EXPECT_THROW(run_agent_loop(settings(1), agent(2), steps), error);
  const fs::path run_dir = fs::directory_iterator(m_work.path() / "optimize_runs")->path();
  const run_manifest killed = read_run_manifest(run_dir);
  ASSERT_TRUE(killed.open_round);
  EXPECT_EQ(enum_name(killed.open_round->candidates[1].outcome), "pending");
  EXPECT_FALSE(work_files_left());

  // The next call, on one GPU, measures what the round has not committed.
  loop_settings s = settings(1);
  s.run_dir = run_dir;
  const step_outcome step = run_loop_step(s, m_gpu.services());
  ASSERT_TRUE(step.record);
  EXPECT_EQ(step.record->chosen_candidate, 2);
  EXPECT_FALSE(read_run_manifest(run_dir).open_round);
}

TEST_F(CandidateRoundOnGpus,
       ALoopKilledMidRoundOnTwoGpusResumesOnTwoWithoutMeasuringCommittedCandidatesAgain) {
  prepare(1, 1, 0.8, "first");
  prepare(1, 2, 0.7, "second");
  prepare(1, 3, 1.2, "third");
  prepare(1, 4, 0.9, "fourth");
  loop_services steps = on_gpus(1);
  m_others[0].die_in_profile_of = "// v1 c2";
  EXPECT_THROW(run_agent_loop(settings(1), agent(4), steps), std::runtime_error);
  const fs::path run_dir = fs::directory_iterator(m_work.path() / "optimize_runs")->path();
  const run_manifest killed = read_run_manifest(run_dir);
  ASSERT_TRUE(killed.open_round);
  EXPECT_EQ(enum_name(killed.open_round->candidates[1].outcome), "pending") << "killed while it was profiled";
  std::size_t committed = 0;
  for (const auto& c : killed.open_round->candidates) committed += c.finished_at.empty() ? 0 : 1;
  EXPECT_GE(committed, 1u) << "candidate 1 finished on GPU 0 before the kill";
  EXPECT_EQ(outcomes().size(), committed) << "each committed candidate's outcome is in the memory";
  EXPECT_FALSE(work_files_left());

  m_others[0].die_in_profile_of.clear();
  const int benches = m_gpu.bench_calls + m_others[0].bench_calls;
  loop_settings s = settings(1);
  s.run_dir = run_dir;
  const agent_loop_outcome out = run_agent_loop(s, agent(4), on_gpus(1));
  ASSERT_FALSE(out.failed) << out.stop_reason;
  EXPECT_EQ(static_cast<std::size_t>(m_gpu.bench_calls + m_others[0].bench_calls - benches), 4 - committed)
      << "only the candidates the killed call had not committed";
  const run_manifest m = read_run_manifest(run_dir);
  EXPECT_FALSE(m.open_round);
  EXPECT_EQ(m.iterations[1].chosen_candidate, 2);
  EXPECT_EQ(outcomes().size(), 4u);
}

TEST_F(CandidateRoundOnGpus, TwoPositiveCandidatesFromTwoGpusWhoseIntervalsOverlapAreComparedOnOne) {
  prepare(1, 1, 0.8, "unroll_4");
  prepare(1, 2, 0.8, "unroll_8");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(2), on_gpus(1));
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  const iteration_record& round = m.iterations[1];
  ASSERT_EQ(outcomes_of(round), (std::vector<std::string>{"positive", "positive"}));
  ASSERT_TRUE(round.candidates[0].comparison && round.candidates[1].comparison);
  EXPECT_EQ(round.candidates[0].comparison->gpu, 0);
  EXPECT_EQ(round.candidates[1].comparison->gpu, 1) << "each compared with the best where it ran";
  const fs::path record = out.last.run_dir / "iter_v1" / "top_two_comparison.json";
  ASSERT_TRUE(fs::exists(record));
  const json two = read_json_file(record);
  EXPECT_EQ(two["gpu"], 0) << "the two compared with each other on one GPU";
  EXPECT_EQ(two["outcome"], "neutral") << two.dump();
  EXPECT_EQ(m_gpu.compare_calls, 2) << "candidate 1 against the best, then the two against each other";
  EXPECT_NE(round.reason.find("against cand_"), std::string::npos) << round.reason;
  // Equal speeds: the comparison cannot prefer either, so the smaller ratio stands.
  const int smaller = round.candidates[0].comparison->ratio <= round.candidates[1].comparison->ratio ? 1 : 2;
  EXPECT_EQ(round.chosen_candidate, smaller);
}

TEST_F(CandidateRoundOnGpus, OnOneGpuTheRatiosAloneChoose) {
  prepare(1, 1, 0.8, "unroll_4");
  prepare(1, 2, 0.8, "unroll_8");
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(2), m_gpu.services());
  ASSERT_FALSE(out.failed) << out.stop_reason;
  EXPECT_FALSE(fs::exists(out.last.run_dir / "iter_v1" / "top_two_comparison.json"));
  EXPECT_EQ(m_gpu.compare_calls, 2) << "each candidate against the best, nothing more";
}

TEST(ChosenCandidate, PositiveWithTheSmallestRatioElseTheFastestThatPassedElseTheFirst) {
  const auto candidate = [](int j, version_outcome outcome, std::optional<double> median, double ratio) {
    candidate_record c;
    c.candidate = j;
    c.outcome = outcome;
    c.eligible = outcome != version_outcome::rejected;
    c.median_ms = median;
    c.comparison = version_comparison{};
    c.comparison->ratio = ratio;
    return c;
  };
  EXPECT_EQ(chosen_candidate({candidate(1, version_outcome::positive, 0.9, 0.9),
                              candidate(2, version_outcome::positive, 0.7, 0.7),
                              candidate(3, version_outcome::neutral, 0.6, 0.6)}),
            2);
  EXPECT_EQ(chosen_candidate({candidate(1, version_outcome::negative, 1.2, 1.2),
                              candidate(2, version_outcome::neutral, 1.0, 1.0)}),
            2);
  EXPECT_EQ(chosen_candidate({candidate(4, version_outcome::rejected, std::nullopt, 1),
                              candidate(5, version_outcome::rejected, std::nullopt, 1)}),
            4);
}

}  // namespace
}  // namespace kopt::loop
