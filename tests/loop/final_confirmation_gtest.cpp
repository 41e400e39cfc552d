// The final confirmation on the CPU, through scripted measurements: the figures announced are
// measured again, not read from the manifest an agent could have forged; a best that fails a
// compute-sanitizer tool is rejected and blocked and the next best confirmed; none surviving
// leaves the run without a best; --finish works from the run folder alone.
#include "loop/final_confirmation.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "loop/loop_step.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/run_settings.h"
#include "memory/memory_store.h"
#include "report/html_page.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class FinalConfirmation : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", m_work.path() / "softmax_ref.py");
    m_services = m_gpu.services();
  }

  loop_settings settings(std::int64_t max_iterations) const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.ref = m_work.path() / "softmax_ref.py";
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = max_iterations;
    s.run_dir = m_run_dir;
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  // v0 at speed 1, then each of `versions` (speed, one tag, extra source lines) as the next iteration.
  step_outcome run(const std::vector<std::tuple<double, std::string, std::string>>& versions,
                   std::int64_t max_iterations = 0) {
    const auto max = std::max<std::int64_t>(max_iterations, static_cast<std::int64_t>(versions.size()));
    step_outcome last = run_loop_step(settings(max), m_services);
    m_run_dir = last.run_dir;
    for (const auto& [speed, tag, extra] : versions) {
      write_file_atomic(m_kernel, softmax_version(speed, extra));
      const fs::path proposal = iteration_dir(m_run_dir, last.record->iteration) / "optimization_proposal.md";
      write_file_atomic(proposal, read_text_file(proposal) + "- " + tag + "\n");
      last = run_loop_step(settings(max), m_services);
    }
    return last;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  scripted_gpu m_gpu;
  loop_services m_services;
};

TEST_F(FinalConfirmation, TheAnnouncedFiguresAreMeasuredAgainNotTakenFromAForgedManifest) {
  const step_outcome last = run({{0.5, "one_block_per_row", ""}});
  ASSERT_TRUE(ends_the_run(last));
  ASSERT_EQ(last.manifest.best, 1);
  // An agent between iterations rewrites the record, checksum and all: v1 a hundred times faster.
  run_manifest forged = read_run_manifest(m_run_dir);
  forged.iterations[1].median_ms = 0.0005;
  forged.iterations[1].speedup_vs_reference = 240.0;
  write_run_manifest(m_run_dir, forged);
  const std::string kernel_before = read_text_file(m_kernel);
  const int benches_before = m_gpu.bench_calls;
  const int fresh_before = m_gpu.fresh_reference_calls;

  // --finish: the settings come from the run folder alone.
  const confirmed_run done = finish_run(settings_of_run(m_run_dir), m_services);
  ASSERT_EQ(done.confirmation.verdict, confirmation_verdict::confirmed);
  ASSERT_EQ(done.confirmation.best, 1);
  const confirmation_attempt* a = done.confirmation.confirmed_attempt();
  ASSERT_NE(a, nullptr);
  EXPECT_DOUBLE_EQ(*a->median_ms, m_gpu.baseline_ms * 0.5);  // measured again, not 0.0005
  EXPECT_NEAR(*a->speedup_vs_reference, m_gpu.reference_ms / (m_gpu.baseline_ms * 0.5), 1e-9);
  EXPECT_EQ(a->outcome_vs_baseline, "positive");
  EXPECT_NEAR(*a->ratio_vs_baseline, 0.5, 0.02);
  EXPECT_EQ(a->method.rfind("in turns", 0), 0u) << a->method;
  ASSERT_EQ(a->sanitizers.size(), 3u);
  EXPECT_EQ(m_gpu.sanitized_tools, (std::vector<std::string>{"memcheck", "initcheck", "racecheck"}));
  // The baseline once, the best timed once and once per tool.
  EXPECT_EQ(m_gpu.bench_calls - benches_before, 5);
  EXPECT_EQ(m_gpu.fresh_reference_calls - fresh_before, 5) << "no reference timing from kopt's cache";
  EXPECT_EQ(read_text_file(m_kernel), kernel_before) << "the kernel file held the best already";
  EXPECT_EQ(done.kernel_file, m_kernel.string() + " holds v1, the confirmed best");
  EXPECT_FALSE(fs::exists(m_work.path() / "softmax_last.cu"));
  EXPECT_TRUE(fs::exists(m_run_dir / "confirmation" / "v1" / "racecheck" / "benchmark_result.json"));
  EXPECT_TRUE(fs::exists(m_run_dir / "confirmation" / "v1" / "comparison.json"));
  const std::string summary = read_text_file(m_run_dir / "final_summary.md");
  EXPECT_NE(summary.find("Confirmed best: v1"), std::string::npos);
  // The answer a user ships: each speedup with its interval, the one over v0 inverted from the
  // comparison's ratio.
  ASSERT_TRUE(a->ratio_ci95 && a->speedup_vs_reference_ci95);
  EXPECT_NE(summary.find(fmt::format("{:.3f}x faster than v0 [{:.3f}, {:.3f}]", 1 / *a->ratio_vs_baseline,
                                     1 / (*a->ratio_ci95)[1], 1 / (*a->ratio_ci95)[0])),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find(fmt::format("x the reference [{:.3f}, {:.3f}]", (*a->speedup_vs_reference_ci95)[0],
                                     (*a->speedup_vs_reference_ci95)[1])),
            std::string::npos)
      << summary;
  // How far from the hardware limit, from the bench of the confirmation: the softmax reference
  // states no FLOPs, so the bound is the bytes at the bandwidth a copy reached.
  ASSERT_TRUE(a->speed_of_light);
  EXPECT_EQ(a->speed_of_light->bound_by, "memory");
  EXPECT_DOUBLE_EQ(a->speed_of_light->dram_bytes_per_s, 4.0e12);
  EXPECT_NEAR(a->speed_of_light->percent_of_bound, 100 * (33554432 / 4.0e12 * 1e3) / (m_gpu.baseline_ms * 0.5), 1e-6);
  EXPECT_TRUE(a->speed_of_light->gap_closed_percent);
  EXPECT_NE(read_text_file(m_run_dir / "final_summary.md").find("It runs at "), std::string::npos);

  // The report announces the confirmation's figures and says so.
  const report::run_report rep = report::gather_run_report(m_run_dir);
  ASSERT_NE(rep.confirmed_best(), nullptr);
  EXPECT_DOUBLE_EQ(*rep.confirmed_best()->median_ms, m_gpu.baseline_ms * 0.5);
  const json document = report::to_json(rep);
  EXPECT_EQ(document["confirmation"]["state"], "confirmed");
  EXPECT_EQ(document["confirmation"]["record"]["best"], 1);
  EXPECT_NE(report::report_html(rep, {}).find("It runs at "), std::string::npos) << "the bound, on the page too";
  EXPECT_TRUE(document["confirmation"]["record"]["attempts"][0].contains("speed_of_light"));
}

// With `kopt: flops=` in the reference, the compute side counts, at the FP32 peak of the
// version's profile (a float32 problem); without a measured copy, the DRAM peak, said so.
TEST_F(FinalConfirmation, TheBoundTakesTheReferencesFlopsAtTheProfilesPeak) {
  write_file_atomic(m_work.path() / "softmax_ref.py",
                    read_text_file(m_work.path() / "softmax_ref.py") + "# kopt: flops=5*rows*cols*1000\n");
  m_gpu.copy_bytes_per_s.reset();
  run({{0.5, "one_block_per_row", ""}});
  const confirmed_run done = finish_run(settings_of_run(m_run_dir), m_services);
  const confirmation_attempt* a = done.confirmation.confirmed_attempt();
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->speed_of_light);
  const measure::speed_of_light_figures& f = *a->speed_of_light;
  ASSERT_TRUE(f.flops);
  EXPECT_DOUBLE_EQ(*f.flops, 5.0 * 4096 * 1024 * 1000);
  ASSERT_TRUE(f.peak_flop_per_s) << f.note;
  EXPECT_EQ(f.peak_source, "FP32 peak of the version's ncu profile");
  EXPECT_EQ(f.bound_by, *f.compute_bound_ms > f.memory_bound_ms ? "compute" : "memory");
  EXPECT_DOUBLE_EQ(f.dram_bytes_per_s, 4.8e12);
  EXPECT_NE(f.dram_source.find("DRAM peak"), std::string::npos);
}

TEST_F(FinalConfirmation, AMalformedFlopsAnnotationIsRefusedBeforeTheRunStarts) {
  write_file_atomic(m_work.path() / "softmax_ref.py",
                    read_text_file(m_work.path() / "softmax_ref.py") + "# kopt: flops=5*rows*colz\n");
  try {
    run({});
    FAIL() << "a malformed annotation was accepted";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("kopt: flops=5*rows*colz"), std::string::npos) << e.headline();
  }
  EXPECT_FALSE(fs::exists(m_work.path() / "optimize_runs")) << "no run folder for a run that cannot start";
}

TEST_F(FinalConfirmation, ABestThatFailsIsRejectedAndBlockedAndTheNextBestIsConfirmed) {
  run({{0.7, "one_block_per_row", ""}, {0.5, "racy_shared_reduction", "// sanitizer finds: racecheck"}});
  ASSERT_EQ(read_run_manifest(m_run_dir).best, 2) << "the judge alone let the racy version through";

  const confirmed_run done = finish_run(settings(2), m_services);
  ASSERT_EQ(done.confirmation.attempts.size(), 2u);
  const confirmation_attempt& racy = done.confirmation.attempts[0];
  EXPECT_EQ(racy.iteration, 2);
  EXPECT_FALSE(racy.confirmed);
  EXPECT_EQ(racy.reason.rfind("under compute-sanitizer racecheck: ", 0), 0u) << racy.reason;
  EXPECT_TRUE(done.confirmation.attempts[1].confirmed);
  EXPECT_EQ(done.confirmation.best, 1);
  EXPECT_TRUE(done.survived());

  const run_manifest m = read_run_manifest(m_run_dir);
  EXPECT_EQ(m.best, 1);
  const iteration_record& v2 = *m.find(2);
  EXPECT_EQ(enum_name(v2.outcome), "rejected");
  EXPECT_FALSE(v2.eligible);
  EXPECT_EQ(v2.reason.rfind("failed the final confirmation: under compute-sanitizer racecheck", 0), 0u) << v2.reason;
  EXPECT_NE(std::find(m.blocked.begin(), m.blocked.end(), v2.fingerprint), m.blocked.end());
  // The memory is told: the strategy the loop had recorded as a win counts as rejected now.
  {
    const memory::memory_store store = memory::memory_store::open_read_only(settings(2).memory_db);
    const auto history = store.history(v2.fingerprint);
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0].outcome, "rejected");
    EXPECT_EQ(history[0].reason, v2.reason);
    EXPECT_EQ(store.preferred(scope_of(m, m.arch, m.find(1)->bottleneck)).size(), 1u) << "only v1's strategy";
    const auto summaries = store.summarize({});
    const auto counted = std::find_if(summaries.begin(), summaries.end(),
                                      [&](const auto& s) { return s.fingerprint == v2.fingerprint; });
    ASSERT_NE(counted, summaries.end());
    EXPECT_EQ(counted->positive, 0);
    EXPECT_EQ(counted->rejected, 1);
  }
  const std::optional<final_confirmation> kept = read_confirmation(m_run_dir);
  ASSERT_TRUE(kept.has_value());
  EXPECT_TRUE(confirmation_is_current(*kept, m));

  // The answer is in the user's file: the confirmed v1, with the rejected last version beside it.
  EXPECT_EQ(read_text_file(m_kernel), read_text_file(m_run_dir / m.find(1)->snapshot));
  EXPECT_EQ(read_text_file(m_work.path() / "softmax_last.cu"), read_text_file(m_run_dir / v2.snapshot));
  EXPECT_EQ(done.kernel_file, m_kernel.string() + " now holds v1, the confirmed best (what it held is kept in " +
                                  (m_work.path() / "softmax_last.cu").string() + ")");
}

// The snapshot is what kopt measured: one edited behind kopt's back (a faster kernel slipped in
// after the judge) is not re-judged as if it were the version, and the next best is confirmed.
TEST_F(FinalConfirmation, ABestWhoseSnapshotWasEditedIsNotConfirmed) {
  run({{0.7, "one_block_per_row", ""}, {0.5, "vectorized", ""}});
  const run_manifest before = read_run_manifest(m_run_dir);
  ASSERT_EQ(before.best, 2);
  const fs::path snapshot = m_run_dir / before.find(2)->snapshot;
  write_file_atomic(snapshot, read_text_file(snapshot) + "// edited after it was measured\n");

  const confirmed_run done = finish_run(settings(2), m_services);
  ASSERT_EQ(done.confirmation.attempts.size(), 2u);
  EXPECT_FALSE(done.confirmation.attempts[0].confirmed);
  EXPECT_NE(done.confirmation.attempts[0].reason.find("changed since it was measured"), std::string::npos)
      << done.confirmation.attempts[0].reason;
  EXPECT_EQ(done.confirmation.best, 1);
}

TEST_F(FinalConfirmation, NoneSurvivingLeavesTheRunWithoutABestAndSaysSo) {
  run({{0.5, "racy_shared_reduction", "// sanitizer finds: initcheck"}});
  const confirmed_run done = finish_run(settings(1), m_services);
  EXPECT_EQ(done.confirmation.verdict, confirmation_verdict::none_survived);
  EXPECT_FALSE(done.survived());
  EXPECT_FALSE(done.confirmation.best.has_value());
  ASSERT_EQ(done.confirmation.attempts.size(), 1u);
  EXPECT_EQ(done.manifest.best, 0) << "the baseline, which is no best of the run";
  const report::run_report rep = report::gather_run_report(m_run_dir);
  EXPECT_EQ(rep.confirmed_best(), nullptr);
  EXPECT_EQ(rep.confirmation_state(), "none survived");
  EXPECT_TRUE(done.kernel_file.empty()) << "no best: the kernel file is left as it is";
}

TEST_F(FinalConfirmation, ARunWithNoBestBeyondTheBaselineHasNothingToConfirm) {
  run({{1.3, "slower", ""}});
  const int benches_before = m_gpu.bench_calls;
  const confirmed_run done = finish_run(settings(1), m_services);
  EXPECT_EQ(done.confirmation.verdict, confirmation_verdict::nothing_to_confirm);
  EXPECT_TRUE(done.survived());
  EXPECT_EQ(m_gpu.bench_calls, benches_before) << "nothing measured";
}

TEST_F(FinalConfirmation, AnIterationAfterTheConfirmationMakesItStale) {
  run({{0.5, "one_block_per_row", ""}}, 2);
  finish_run(settings(2), m_services);
  ASSERT_EQ(report::gather_run_report(m_run_dir).confirmation_state(), "confirmed");
  write_file_atomic(m_kernel, softmax_version(0.4));
  run_loop_step(settings(2), m_services);
  const report::run_report rep = report::gather_run_report(m_run_dir);
  EXPECT_EQ(rep.confirmation_state(), "not confirmed yet");
  EXPECT_EQ(rep.confirmed_best(), nullptr);
}

TEST(FinishRefusal, AFolderWithoutAManifestIsRefusedWithOneLine) {
  kopt::testing::scratch_dir empty;
  const auto r = kopt::testing::run_kopt({"loop", "--finish", "--run-dir", empty.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("holds no run (no run_manifest.json)"), std::string::npos) << r.stderr_text;
  const auto without = kopt::testing::run_kopt({"loop", "--finish"});
  EXPECT_EQ(without.exit_code, 2) << without.stderr_text;
  EXPECT_NE(without.stderr_text.find("--run-dir"), std::string::npos) << without.stderr_text;
}

}  // namespace
}  // namespace kopt::loop
