// A run folder the Python toolkit made continues in kopt: its files are kept under new names,
// its figures listed as unverified, v0 and its best judged again from their snapshots, and the
// version the agent wrote next judged as the run's next iteration. Through scripted
// measurements, on the CPU.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "loop/loop_step.h"
#include "loop/run_manifest.h"
#include "loop/strategy_tags.h"
#include "loop/toolkit_run_adoption.h"
#include "memory/strategy_fingerprint.h"
#include "report/html_page.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "report/toolkit_adoption_rows.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class ToolkitAdoption : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(0.7));  // the version the agent wrote after the toolkit's v2
    fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", m_work.path() / "softmax_ref.py");
    m_run_dir = m_work.path() / "optimize_runs" / "run_20261201_101500";
    m_services = m_gpu.services();
    // The toolkit's run: v0, v1 faster (its best), v2 slower; its agent named v3's strategy.
    const double speeds[] = {1.0, 0.8, 0.9};
    const std::vector<std::string> tags[] = {{"baseline"}, {"vectorized_float4_io"}, {"retile_64"}};
    const char* outcomes[] = {"positive", "positive", "negative"};
    const double medians[] = {0.149, 0.103, 0.146};
    json iterations = json::array();
    for (int k = 0; k < 3; ++k) {
      const fs::path dir = m_run_dir / fmt::format("iter_v{}", k);
      const fs::path snapshot = m_work.write(dir / fmt::format("softmax_v{}.cu", k), softmax_version(speeds[k]));
      m_work.write(dir / "benchmark_result.json", "{\"kernel\": {\"median_ms\": 1}}");
      m_work.write(dir / "optimization_proposal.md", "# Optimization proposal\n\n## Strategy tags\n- fill_me_tag\n");
      iterations.push_back({{"iteration", k},
                            {"created_at", "2026-12-01T10:15:00"},
                            {"snapshot_file", snapshot.string()},
                            {"benchmark_rc", 0},
                            {"benchmark_result",
                             {{"kernel", {{"median_ms", medians[k]}, {"average_ms", medians[k] * 1.01}}},
                              {"correctness", {{"checked", true}, {"passed", true}}},
                              {"has_reference", true}}},
                            {"strategy",
                             {{"tags", tags[k]},
                              {"fingerprint", memory::strategy_fingerprint("cuda", tags[k])},
                              {"outcome", outcomes[k]},
                              {"reason", "faster_than_previous"}}},
                            {"full_report_exists", true},
                            {"targeted_ncu_rc", 0},
                            {"full_ncu_rc", nullptr}});
    }
    m_work.write(m_run_dir / "iter_v2" / "optimization_proposal.md",
                 "# Optimization proposal\n\n## Strategy tags\n- warp_shuffle_reduce\n\n## This iteration\n- x\n");
    m_work.write(m_run_dir / "final_summary.md", "# Operator Optimization Loop Summary\n");
    m_work.write(m_run_dir / "preflight_check.json", "{\"ready\": true}");
    const json manifest = {{"created_at", "2026-12-01T10:15:00"},
                           {"run_dir", m_run_dir.string()},
                           {"backend", "cuda"},
                           {"source_file", fs::absolute(m_kernel).string()},
                           {"reference_file", (m_work.path() / "softmax_ref.py").string()},
                           {"max_iterations", 6},
                           {"arch", ""},
                           {"dims_args", {"--rows=4096", "--cols=1024"}},
                           {"iterations", iterations},
                           {"best_iteration", 1},
                           {"best_kernel_path", iterations[1]["snapshot_file"]},
                           {"strategy_memory", {{"version", 1}, {"current_run", {{"positive", json::object()}}}}}};
    m_toolkit_text = manifest.dump(2);
    m_work.write(m_run_dir / "run_manifest.json", m_toolkit_text);
  }

  loop_settings settings() const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.ref = m_work.path() / "softmax_ref.py";
    s.target.dims = {{"cols", "1024"}, {"rows", "4096"}};
    s.max_iterations = 6;
    s.run_dir = m_run_dir;
    s.iteration = 3;  // the toolkit's loop skill numbers the next version after its own
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  std::string m_toolkit_text;
  scripted_gpu m_gpu;
  loop_services m_services;
};

TEST_F(ToolkitAdoption, TheToolkitsRunContinuesWithItsV0AndBestJudgedAgain) {
  const step_outcome out = run_loop_step(settings(), m_services);
  // Nothing of the toolkit's is lost: its files under new names, byte for byte.
  EXPECT_EQ(read_text_file(m_run_dir / "toolkit_run_manifest.json"), m_toolkit_text);
  for (const char* kept : {"toolkit_iter_v0/softmax_v0.cu", "toolkit_iter_v1/benchmark_result.json",
                           "toolkit_iter_v2/optimization_proposal.md", "toolkit_final_summary.md",
                           "toolkit_preflight_check.json"}) {
    EXPECT_TRUE(fs::exists(m_run_dir / kept)) << kept;
  }
  const run_manifest m = read_run_manifest(m_run_dir);
  ASSERT_EQ(m.iterations.size(), 3u);
  EXPECT_EQ(m.kernel, fs::absolute(m_kernel).string()) << "the best goes back into the toolkit's kernel file";
  EXPECT_EQ(enum_name(m.iterations[0].outcome), "baseline");
  EXPECT_EQ(m.iterations[0].kernel_file, (m_run_dir / "toolkit_iter_v0" / "softmax_v0.cu").string());
  EXPECT_EQ(m.iterations[1].kernel_file, (m_run_dir / "toolkit_iter_v1" / "softmax_v1.cu").string());
  // Each snapshot measured from beside the kernel file, where a header it includes by a relative
  // path lies (the toolkit built the kernel file there), and kopt's copy gone afterwards.
  ASSERT_FALSE(m_gpu.bench_kernels.empty());
  for (const fs::path& measured : m_gpu.bench_kernels) EXPECT_EQ(measured.parent_path(), m_work.path());
  EXPECT_EQ(m_gpu.bench_kernels.front(), m_work.path() / ".softmax.kopt-adopted.cu");
  EXPECT_EQ(m_gpu.bench_kernels.back(), m_kernel);
  EXPECT_FALSE(fs::exists(m_work.path() / ".softmax.kopt-adopted.cu"));
  EXPECT_EQ(m.iterations[1].tags, std::vector<std::string>{"vectorized_float4_io"}) << "the strategy that led to it";
  EXPECT_EQ(enum_name(m.iterations[1].outcome), "positive") << m.iterations[1].reason;
  // The agent's next version, with the strategy its last proposal for the toolkit named.
  EXPECT_EQ(m.iterations[2].kernel_file, "");
  EXPECT_EQ(m.iterations[2].tags, std::vector<std::string>{"warp_shuffle_reduce"});
  EXPECT_EQ(enum_name(m.iterations[2].outcome), "positive") << m.iterations[2].reason;
  EXPECT_EQ(m.best, 2);
  ASSERT_TRUE(out.record);
  EXPECT_EQ(out.record->iteration, 2);
  ASSERT_FALSE(out.notices.empty());
  EXPECT_NE(out.notices.front().find("adopted the Python toolkit's run"), std::string::npos) << out.notices.front();
  // The toolkit's figures are listed, unverified, with the kopt iteration that judged each again.
  const std::optional<toolkit_adoption> a = read_toolkit_adoption(m_run_dir);
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->verified);
  ASSERT_EQ(a->iterations.size(), 3u);
  EXPECT_EQ(a->iterations[1].median_ms, 0.103);
  EXPECT_EQ(a->iterations[0].judged_as, 0);
  EXPECT_EQ(a->iterations[1].judged_as, 1);
  EXPECT_FALSE(a->iterations[2].judged_as);
  // From now on it is a kopt run like any other.
  EXPECT_EQ(pending_adoption(m_run_dir), adoption_step::none);

  // The report shows the toolkit's figures as unverified, beside kopt's where it judged again.
  const report::run_report rep = report::gather_run_report(m_run_dir);
  const std::vector<report::adoption_row> rows = report::adoption_rows(rep);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[1].toolkit_best);
  EXPECT_EQ(rows[1].kopt_median_ms, m.iterations[1].median_ms);
  EXPECT_EQ(rows[1].kopt_outcome, "positive");
  EXPECT_EQ(report::adoption_row_text(rows[1]).rfind("toolkit v1 0.103 ms (unverified, ", 0), 0u)
      << report::adoption_row_text(rows[1]);
  EXPECT_NE(report::adoption_row_text(rows[2]).find("-> not judged again"), std::string::npos);
  const json document = report::to_json(rep);
  EXPECT_EQ(document["toolkit_adoption"]["verified"], false);
  const std::string page = report::report_html(rep, report::page_options{});
  EXPECT_NE(page.find("Adopted from the Python toolkit"), std::string::npos);
  EXPECT_NE(page.find("unverified"), std::string::npos);
}

TEST_F(ToolkitAdoption, OtherDimensionsAreRefusedAndNothingIsMoved) {
  loop_settings s = settings();
  s.target.dims = {{"rows", "1024"}, {"cols", "1024"}};
  try {
    run_loop_step(s, m_services);
    FAIL() << "adopted at other dimensions";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("was made at --rows=4096 --cols=1024, but this call gives"), std::string::npos)
        << e.headline();
  }
  EXPECT_EQ(read_text_file(m_run_dir / "run_manifest.json"), m_toolkit_text);
  EXPECT_TRUE(fs::exists(m_run_dir / "iter_v0" / "softmax_v0.cu"));
  EXPECT_FALSE(fs::exists(m_run_dir / "toolkit_adoption.json"));
}

// A call killed after the toolkit's files were set aside, or after kopt's v0, goes on from there.
TEST_F(ToolkitAdoption, AKilledAdoptionResumesWhereItStopped) {
  loop_settings s = settings();
  set_toolkit_run_aside(m_run_dir, s.target.kernel, {"--rows=4096", "--cols=1024"});
  EXPECT_EQ(pending_adoption(m_run_dir), adoption_step::judge_v0);
  EXPECT_FALSE(fs::exists(m_run_dir / "run_manifest.json"));
  // The agent's file holds the toolkit's best: nothing new to judge after the adoption.
  write_file_atomic(m_kernel, read_text_file(m_run_dir / "toolkit_iter_v1" / "softmax_v1.cu"));
  const step_outcome out = run_loop_step(s, m_services);
  const run_manifest m = read_run_manifest(m_run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  EXPECT_EQ(m.best, 1);
  EXPECT_EQ(out.record->iteration, 1);
  // The next version's strategy is named in the last proposal, as the toolkit's agent wrote it.
  EXPECT_EQ(parse_strategy_tags(read_text_file(m_run_dir / "iter_v1" / "optimization_proposal.md")),
            std::vector<std::string>{"warp_shuffle_reduce"});
}

TEST_F(ToolkitAdoption, ReadingTheToolkitsManifestAsKoptsSaysHowToAdoptIt) {
  try {
    read_run_manifest(m_run_dir);
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("which kopt has not adopted yet: continue the run with kopt loop KERNEL --run-dir"),
              std::string::npos)
        << e.headline();
  }
}

TEST(StrategyTags, AProposalsListIsReplacedAndTheRestKept) {
  const std::string before = "# P\n\n## Strategy tags\n- fill_me_tag\n- other\n\n## This iteration\n- keep me\n";
  const std::string after = with_strategy_tags(before, {"a", "b"});
  EXPECT_EQ(parse_strategy_tags(after), (std::vector<std::string>{"a", "b"}));
  EXPECT_NE(after.find("## This iteration\n- keep me\n"), std::string::npos) << after;
  EXPECT_EQ(parse_strategy_tags(with_strategy_tags("# P\n", {"c"})), std::vector<std::string>{"c"});
}

}  // namespace
}  // namespace kopt::loop
