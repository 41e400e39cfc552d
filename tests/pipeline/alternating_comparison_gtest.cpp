// Comparisons in turns on the CPU: scripted versions take turns as kopt asks, and the rounds
// settle what a user would expect: an unchanged version is neutral even while the machine
// drifts, 3 % slower is negative, 10 % faster positive, noise past the budget inconclusive,
// and a version that fails mid-way ends the comparison with its reason. run_comparison asks
// the worker for the right jobs.
#include "pipeline/alternating_comparison.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "measure/statistics.h"
#include "pipeline/comparison_pipeline.h"
#include "pipeline/recorded_worker.h"
#include "support/recorded_h200.h"
#include "support/timings.h"

namespace kopt::pipeline {
namespace {

// Version I's calls take 10 µs * speed[I], times a slow drift of the whole machine (as clocks
// and neighbours move) of amplitude `drift`, with a deterministic jitter of `noise`.
class scripted_versions final : public block_timing {
 public:
  scripted_versions(std::vector<double> speeds, double drift, double noise)
      : m_speeds(std::move(speeds)), m_drift(drift), m_noise(noise) {}

  timing_block time_block(std::size_t version, int calls) override {
    order.push_back(static_cast<int>(version));
    calls_asked.push_back(calls);
    if (static_cast<int>(order.size()) == fail_at_block)
      return timing_block{std::nullopt, "", "crashed: an illegal address"};
    const double drift = 1 + m_drift * std::sin(0.05 * static_cast<double>(order.size()));
    std::vector<double> samples;
    for (int i = 0; i < calls; ++i) {
      const double jitter = m_noise * std::sin(12.9898 * (i + 1) * (static_cast<double>(order.size()) + 0.5));
      samples.push_back(0.010 * m_speeds.at(version) * drift * (1 + jitter));
    }
    timing_block block;
    block.timing = testing::timing_of_samples(samples);
    if (order.size() == 3) block.warning = "another process used the GPU";
    block.placement = static_cast<int>(blocks_of[version]++ % 8);  // each version's own buffer sets in turn
    return block;
  }
  std::vector<std::string> close() override { return {"", ""}; }

  std::vector<int> order;
  std::vector<int> calls_asked;
  int fail_at_block = -1;

 private:
  std::size_t blocks_of[2] = {0, 0};
  std::vector<double> m_speeds;
  double m_drift;
  double m_noise;
};

TEST(CompareInTurns, AnUnchangedVersionIsNeutralWhileTheMachineDrifts) {
  // The machine drifts by up to 5 %, far more than the margin, but slowly: both blocks of a
  // round see nearly the same machine.
  scripted_versions versions({1.0, 1.0}, 0.05, 0.002);
  const turns_outcome o = compare_in_turns(versions, 0.010);
  EXPECT_EQ(o.evidence.verdict, measure::outcome::neutral) << to_json(o).dump();
  EXPECT_EQ(o.stop, "settled");
  EXPECT_GE(o.rounds, measure::minimum_paired_rounds);
  EXPECT_EQ(o.round_ratios.size(), o.rounds);
  // The order alternates: candidate first, then incumbent first.
  ASSERT_GE(versions.order.size(), 4u);
  EXPECT_EQ(std::vector<int>(versions.order.begin(), versions.order.begin() + 4),
            (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(o.warnings, std::vector<std::string>{"another process used the GPU"});
}

TEST(CompareInTurns, TheRecordKeepsEveryBlockWithItsVersionAndPlacementAndTheSummaryDoesNot) {
  scripted_versions versions({1.03, 1.0}, 0.01, 0.003);
  const turns_outcome o = compare_in_turns(versions, 0.010);
  const json record = to_json(o);
  ASSERT_EQ(record["blocks"].size(), 2 * o.rounds);
  // Round 1 goes incumbent first; each version's blocks walk through its placements.
  EXPECT_EQ(record["blocks"][2]["version"], "incumbent");
  EXPECT_EQ(record["blocks"][2]["round"], 1);
  EXPECT_EQ(record["blocks"][3]["placement"], 1);
  for (std::size_t r = 0; r < o.rounds; ++r) {
    // A round's ratio is its candidate block's estimate over its incumbent block's.
    const json& a = record["blocks"][2 * r];
    const json& b = record["blocks"][2 * r + 1];
    const json& candidate = a["version"] == "candidate" ? a : b;
    const json& incumbent = a["version"] == "candidate" ? b : a;
    EXPECT_DOUBLE_EQ(o.round_ratios[r], candidate["estimate_ms"].get<double>() / incumbent["estimate_ms"].get<double>());
    EXPECT_EQ(candidate["calls"], r == 0 ? versions.calls_asked[0] : o.block_calls);
  }
  EXPECT_FALSE(summary_json(o).contains("blocks"));
}

TEST(CompareInTurns, ThreePercentSlowerIsNegativeAndTenPercentFasterPositive) {
  scripted_versions slower({1.03, 1.0}, 0.01, 0.003);
  const turns_outcome s = compare_in_turns(slower, 0.010);
  EXPECT_EQ(s.evidence.verdict, measure::outcome::negative) << to_json(s).dump();
  EXPECT_NEAR(s.evidence.ratio, 1.03, 0.005);
  EXPECT_GT(s.evidence.ratio_ci95.low, 1.01);

  scripted_versions faster({0.9, 1.0}, 0.01, 0.003);
  const turns_outcome f = compare_in_turns(faster, 0.010);
  EXPECT_EQ(f.evidence.verdict, measure::outcome::positive);
  EXPECT_LT(f.evidence.ratio_ci95.high, 0.99);
  EXPECT_NEAR(f.evidence.candidate_median_ms, 0.009, 0.0005);
}

TEST(CompareInTurns, ADifferenceInsideTheNoiseIsInconclusiveAtTheBudgetAndSaysSo) {
  // 1 % slower with 3 % noise per call and per block: the interval straddles the margin.
  scripted_versions close({1.01, 1.0}, 0.0, 0.03);
  turns_settings budget;
  budget.max_rounds = 8;
  const turns_outcome o = compare_in_turns(close, 0.010, budget);
  EXPECT_EQ(o.evidence.verdict, measure::outcome::inconclusive) << to_json(o).dump();
  EXPECT_EQ(o.stop, "round limit");
  EXPECT_EQ(o.rounds, 8u);
}

TEST(CompareInTurns, AVersionThatFailsEndsTheComparisonWithItsReason) {
  scripted_versions versions({1.0, 1.0}, 0.0, 0.001);
  versions.fail_at_block = 4;  // round 2, candidate second
  const turns_outcome o = compare_in_turns(versions, 0.010);
  EXPECT_EQ(o.stop, "failed");
  EXPECT_EQ(o.failed_version, 0);
  EXPECT_EQ(o.failure, "the candidate: crashed: an illegal address");
  EXPECT_EQ(o.evidence.verdict, measure::outcome::inconclusive);
  EXPECT_EQ(to_json(o)["failed_version"], "candidate");
}

TEST(CompareInTurns, TheFirstBlockIsSizedFromTheExpectedTimeAndLaterOnesFromTheRound) {
  scripted_versions versions({1.0, 1.0}, 0.0, 0.001);
  turns_settings settings;
  settings.max_rounds = 2;
  const turns_outcome o = compare_in_turns(versions, 100.0, settings);  // 100 ms calls: the fewest calls
  ASSERT_EQ(versions.calls_asked.size(), 4u);
  EXPECT_EQ(versions.calls_asked[0], 10);
  EXPECT_EQ(versions.calls_asked[1], 10);
  // The scripted blocks take no time at all: the next ones grow to the most calls a block has.
  EXPECT_GT(versions.calls_asked[2], 10);
  EXPECT_EQ(o.block_calls, versions.calls_asked[2]);
}

TEST(RunComparison, AsksTheWorkerForBothVersionsTimedInBlocks) {
  recorded_worker worker(recorded_h200(), wrapped_child_run{});
  std::vector<std::string> sources;
  std::vector<harness::bench_job> jobs;
  worker.respond_to_blocks([&](const harness::bench_job& job, int calls) {
    sources.push_back(job.kernel_source);
    jobs.push_back(job);
    EXPECT_EQ(job.kind, harness::job_kind::blocks);
    EXPECT_TRUE(kopt::harness::evidence_dir_of(job).empty());
    EXPECT_TRUE(job.reference_source.empty());
    const double ms = job.kernel_source.find("slow") != std::string::npos ? 0.0206 : 0.020;
    return timing_block{testing::timing_of_samples(std::vector<double>(static_cast<std::size_t>(calls), ms)), "", ""};
  });
  comparison_request request;
  request.job.backend = "cuda";
  request.job.reference_source = "/somewhere/ref.py";
  request.target.dims = {{"N", "1024", false}};
  request.candidate = {"/work/slow.cu", "/cache/slow.so"};
  request.incumbent = {"/work/fast.cu", "/cache/fast.so"};
  const turns_outcome o = run_comparison(request, worker);
  EXPECT_EQ(o.evidence.verdict, measure::outcome::negative) << to_json(o).dump();
  EXPECT_NEAR(o.evidence.ratio, 1.03, 1e-9);
  ASSERT_GE(worker.events().size(), 3u);
  EXPECT_EQ(worker.events().front(), "open 2 versions in turns");
  EXPECT_EQ(worker.events().back(), "close");
  EXPECT_EQ(sources.front(), "/work/slow.cu");

  // A Triton version is held open in the Python runner, on the problem its preparation made.
  request.job.backend = "triton";
  EXPECT_THROW(run_comparison(request, worker), error) << "a Triton comparison without its problem";
  request.job.triton_problem = json{{"owner", "kernel"}};
  request.job.python = "/usr/bin/python3";
  request.candidate = {"/work/slow.py", ""};
  request.incumbent = {"/work/fast.py", ""};
  jobs.clear();
  const turns_outcome t = run_comparison(request, worker);
  EXPECT_EQ(t.evidence.verdict, measure::outcome::negative) << to_json(t).dump();
  ASSERT_FALSE(jobs.empty());
  for (const harness::bench_job& job : jobs) {
    EXPECT_EQ(job.kind, harness::job_kind::blocks);
    EXPECT_EQ(job.triton_problem, request.job.triton_problem);
    EXPECT_TRUE(job.kernel_library.empty()) << "Triton compiles in the runner: no library";
  }
}

}  // namespace
}  // namespace kopt::pipeline
