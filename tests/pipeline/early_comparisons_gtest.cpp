// The verdict's comparisons begun while the reference's process runs: a key is compared once
// the reference marked its outputs complete, and the verdict from them is the verdict judge_outputs
// gives alone; a key left unmarked (a writer that does not mark) or a kernel's key that cannot
// be read is left for judge_outputs; what was compared is dropped when the reference's
// module names other tolerances at the end, unless its runner announced them before its outputs;
// and where it is final, the compared outputs go.
#include "pipeline/early_comparisons.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;
using harness::evidence_key;
using harness::evidence_kind;

kernel::kernel_plan axpy_plan() {
  const std::string source = "extern \"C\" void solve(const float* x, float* y, int N) {}\n";
  return kernel::plan_kernel("axpy.cu", source, std::nullopt, {{"N", "4096"}}, std::nullopt, {});
}

harness::buffer_contents filled(const kernel::kernel_plan& plan, std::byte fill) {
  harness::buffer_contents outputs(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != kernel::buffer_role::in)
      outputs[i].assign(static_cast<std::size_t>(plan.buffers[i].bytes), fill);
  }
  return outputs;
}

// Waits up to 10 s for `early` to have compared `count` keys.
bool compares(const early_comparisons& early, std::size_t count) {
  for (int i = 0; i < 1000 && early.compared() < count; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return early.compared() == count;
}

// Waits until the comparer has looked at the folders twice more, or stopped looking: what it
// has not compared by then, it leaves for the verdict while nothing changes.
void let_it_look(const early_comparisons& early) {
  const std::size_t start = early.looks();
  for (int i = 0; i < 5000 && !early.done() && early.looks() < start + 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(early.done() || early.looks() >= start + 2) << "the comparer stopped looking at the folders";
}

class EarlyComparisons : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const evidence_key& key : m_keys)
      harness::write_evidence(m_folders.kernel, key, m_plan, filled(m_plan, std::byte{0x3f}));
    fs::create_directories(m_folders.reference);
  }

  // The reference's process writing (and marking) every key alike.
  void reference_writes_every_key() const {
    for (const evidence_key& key : m_keys)
      harness::write_evidence(m_folders.reference, key, m_plan, filled(m_plan, std::byte{0x3f}));
  }

  // Every key compared with `tolerances`, then handed over for the verdict with the module's
  // atol added to them at the end.
  compared_keys compared_then_named_by_the_module(const validate::tolerance_overrides& tolerances) const {
    early_comparisons early(m_plan, m_keys, m_folders, tolerances);
    reference_writes_every_key();
    EXPECT_TRUE(compares(early, 3));
    validate::tolerance_overrides module_named = tolerances;
    module_named.reference_atol = 0.5;
    return early.take(module_named);
  }

  // What the verdict makes of the outputs, as a document to compare whole.
  json verdict(const compared_keys* early) const {
    outputs_judgement judged = judge_outputs(m_plan, m_keys, &m_folders, m_tolerances, early);
    judged.correctness.passed = !judged.failure;
    return json{{"status", judged.failure ? "failed" : "ok"},
                {"reason", judged.failure.value_or("")},
                {"compared", judged.compared},
                {"correctness", to_document(judged.correctness)}};
  }

  testing::scratch_dir m_dir;
  const kernel::kernel_plan m_plan = axpy_plan();
  const std::vector<evidence_key> m_keys{{evidence_kind::seed, 1, "before timing"},
                                         {evidence_kind::call, 5, "timed"},
                                         {evidence_kind::call, 9, "timed"}};
  const evidence_folders m_folders{m_dir.path() / "kernel", m_dir.path() / "reference"};
  const validate::tolerance_overrides m_tolerances{};
};

TEST_F(EarlyComparisons, KeysAreComparedAsTheReferenceMarksThemAndTheVerdictIsTheSame) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances);
  harness::write_evidence(m_folders.reference, m_keys[0], m_plan, filled(m_plan, std::byte{0x3f}));
  EXPECT_TRUE(compares(early, 1)) << "the first key, marked, while the others are not written yet";
  harness::write_evidence(m_folders.reference, m_keys[1], m_plan, filled(m_plan, std::byte{0x3f}));
  harness::write_evidence(m_folders.reference, m_keys[2], m_plan,
                          filled(m_plan, std::byte{0x40}));  // differs
  ASSERT_TRUE(compares(early, 3));
  const compared_keys compared = early.take(m_tolerances);
  ASSERT_EQ(compared.size(), 3u);
  for (const auto& c : compared) EXPECT_TRUE(c.has_value());
  const json with_early = verdict(&compared);
  EXPECT_EQ(with_early, verdict(nullptr));
  EXPECT_EQ(with_early["status"], "failed");
  EXPECT_EQ(
      with_early["reason"].get<std::string>().rfind("timed call 9 (checked at random): wrong values", 0), 0u)
      << with_early["reason"];
}

TEST_F(EarlyComparisons, AnUnmarkedKeyAndTheKeysAfterItAreLeftForTheVerdict) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances);
  harness::write_evidence(m_folders.reference, m_keys[0], m_plan, filled(m_plan, std::byte{0x3f}));
  // The second key's output as a writer that leaves no mark would write it: not yet complete.
  fs::create_directories(m_folders.reference / "call_5");
  {
    std::ofstream out(m_folders.reference / "call_5" / "y.out.bin", std::ios::binary);
    const std::vector<char> bytes(4096 * 4, 0x3f);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  harness::write_evidence(m_folders.reference, m_keys[2], m_plan, filled(m_plan, std::byte{0x3f}));
  ASSERT_TRUE(compares(early, 1));
  let_it_look(early);
  EXPECT_EQ(early.compared(), 1u) << "in order: the unmarked key holds the ones after it back";
  const compared_keys compared = early.take(m_tolerances);
  EXPECT_TRUE(compared[0].has_value());
  EXPECT_FALSE(compared[1].has_value());
  EXPECT_FALSE(compared[2].has_value());
  const json result = verdict(&compared);
  EXPECT_EQ(result, verdict(nullptr));
  EXPECT_EQ(result["status"], "ok");
  EXPECT_TRUE(result["correctness"]["passed"].get<bool>());
}

TEST_F(EarlyComparisons, AKernelsKeyThatCannotBeReadIsTheVerdictsToName) {
  fs::remove(m_folders.kernel / "call_5" / "y.out.bin");
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances);
  reference_writes_every_key();
  ASSERT_TRUE(compares(early, 1));
  const compared_keys compared = early.take(m_tolerances);
  EXPECT_FALSE(compared[1].has_value());
  const json result = verdict(&compared);
  EXPECT_EQ(result["status"], "failed");
  EXPECT_EQ(result["reason"].get<std::string>().rfind(
                "evidence tampering: the kernel's measuring process left no copy of y", 0),
            0u)
      << result["reason"];
}

TEST_F(EarlyComparisons, OtherTolerancesNamedAtTheEndDropWhatWasCompared) {
  for (const auto& c : compared_then_named_by_the_module(m_tolerances)) EXPECT_FALSE(c.has_value());
}

TEST_F(EarlyComparisons, TheSameTolerancesFromTheModuleKeepWhatWasCompared) {
  // --atol given: the module's own atol changes nothing, so the comparisons stand.
  validate::tolerance_overrides flags = m_tolerances;
  flags.flag_atol = 1e-3;
  flags.flag_rtol = 1e-3;
  for (const auto& c : compared_then_named_by_the_module(flags)) EXPECT_TRUE(c.has_value());
}

// A .py reference's runner announces the module's tolerances before its first outputs: nothing is
// compared before that, and what is compared after stands when the module says the same at the end.
TEST_F(EarlyComparisons, AnnouncedTolerancesAreWaitedForAndKeepWhatWasCompared) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances, compared_outputs::kept,
                          reference_tolerances::announced);
  reference_writes_every_key();
  let_it_look(early);
  EXPECT_EQ(early.compared(), 0u) << "nothing before the module's tolerances are known";
  write_file_atomic(harness::announced_tolerances_file(m_folders.reference),
                    R"({"atol": 0.5, "rtol": null})");
  ASSERT_TRUE(compares(early, 3));
  validate::tolerance_overrides module_named = m_tolerances;
  module_named.reference_atol = 0.5;
  for (const auto& c : early.take(module_named)) EXPECT_TRUE(c.has_value());
}

TEST_F(EarlyComparisons, AnnouncedTolerancesTheModuleDoesNotConfirmDropWhatWasCompared) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances, compared_outputs::kept,
                          reference_tolerances::announced);
  write_file_atomic(harness::announced_tolerances_file(m_folders.reference),
                    R"({"atol": 0.5, "rtol": null})");
  reference_writes_every_key();
  ASSERT_TRUE(compares(early, 3));
  validate::tolerance_overrides module_named = m_tolerances;
  module_named.reference_atol = 0.25;  // changed by the module while it ran
  for (const auto& c : early.take(module_named)) EXPECT_FALSE(c.has_value());
}

TEST_F(EarlyComparisons, AMalformedAnnouncementLeavesEveryKeyForTheVerdict) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances, compared_outputs::kept,
                          reference_tolerances::announced);
  write_file_atomic(harness::announced_tolerances_file(m_folders.reference), R"({"atol": "tight"})");
  reference_writes_every_key();
  let_it_look(early);
  EXPECT_EQ(early.compared(), 0u);
  for (const auto& c : early.take(m_tolerances)) EXPECT_FALSE(c.has_value());
  EXPECT_EQ(verdict(nullptr)["status"], "ok");
}

// A .cu reference's comparisons are final: each compared key's outputs go at once, on both
// sides, and the verdict is the one judge_outputs gives from the files alone.
TEST_F(EarlyComparisons, FinalComparisonsRemoveTheirKeysOutputsAndTheVerdictIsTheSame) {
  reference_writes_every_key();
  harness::write_evidence(m_folders.reference, m_keys[1], m_plan,
                          filled(m_plan, std::byte{0x40}));  // differs
  const json alone = verdict(nullptr);
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances, compared_outputs::removed);
  ASSERT_TRUE(compares(early, 3));
  const compared_keys compared = early.take(m_tolerances);
  for (const evidence_key& key : m_keys) {
    EXPECT_FALSE(fs::exists(m_folders.kernel / harness::folder_name(key))) << harness::folder_name(key);
    EXPECT_FALSE(fs::exists(m_folders.reference / harness::folder_name(key))) << harness::folder_name(key);
  }
  EXPECT_EQ(verdict(&compared), alone);
  EXPECT_EQ(alone["reason"].get<std::string>().rfind("timed call 5 (checked at random): wrong values", 0), 0u)
      << alone["reason"];
}

TEST_F(EarlyComparisons, RemovedComparisonsUnderOtherTolerancesAreAKoptBugNotAVerdict) {
  early_comparisons early(m_plan, m_keys, m_folders, m_tolerances, compared_outputs::removed);
  reference_writes_every_key();
  ASSERT_TRUE(compares(early, 3));
  validate::tolerance_overrides other = m_tolerances;
  other.reference_atol = 0.5;
  EXPECT_THROW(early.take(other), error);
}

}  // namespace
}  // namespace kopt::pipeline
