// --check-dims on the CPU: the syntax of one extra shape, and through scripted measurements,
// a version correct only at the benchmarked shape rejected with the shape named, the shapes
// frozen at v0, and the record of which shapes were checked.
#include "kernel/check_shapes.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "loop/loop_step.h"
#include "loop/run_directory.h"
#include "memory/memory_store.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using kernel::check_labels;
using kernel::check_shape;
using kernel::dimension_arg;
using kernel::parse_check_dims;
using kernel::parse_check_dims_list;
using testing::scripted_gpu;
using testing::softmax_version;

const std::vector<dimension_arg> benchmarked = {{"rows", "4096", false}, {"cols", "1024", false}};

TEST(CheckDims, AShapeNamesTheDimensionsItChangesTheOthersKeepTheirValues) {
  const check_shape both = parse_check_dims("--rows=1000 --cols=1000", benchmarked);
  EXPECT_EQ(both.label, "--rows=1000 --cols=1000");
  ASSERT_EQ(both.dims.size(), 2u);
  EXPECT_EQ(both.dims[0].value, "1000");
  EXPECT_EQ(both.dims[1].value, "1000");
  // Spaces around and between, the order of the benchmarked flags in the label.
  EXPECT_EQ(parse_check_dims("  --cols=1000\t--rows=7 ", benchmarked).label, "--rows=7 --cols=1000");
  EXPECT_EQ(parse_check_dims("--cols=1000", benchmarked).label, "--rows=4096 --cols=1000");
  const std::vector<dimension_arg> with_dim_flag = {{"n", "4096", false}, {"seed", "3", true}};
  EXPECT_EQ(parse_check_dims("--dim seed=5", with_dim_flag).label, "--n=4096 --dim seed=5");
  const auto shapes = parse_check_dims_list({"--cols=1000", "--rows=1 --cols=1"}, benchmarked);
  EXPECT_EQ(check_labels(shapes), (std::vector<std::string>{"--rows=4096 --cols=1000", "--rows=1 --cols=1"}));
}

TEST(CheckDims, AMalformedShapeIsAOneLineUsageError) {
  const std::vector<std::string> malformed = {"",
                                              "   ",
                                              "--rows",
                                              "rows=1000",
                                              "--rows=",
                                              "--=5",
                                              "--rows=1 x",
                                              "--dim",
                                              "--dim rows",
                                              "--2x=1",
                                              "--rows=1 --rows=2",
                                              "--widths=3",
                                              "--rows=4096 --cols=1024"};
  for (const std::string& value : malformed) {
    try {
      parse_check_dims(value, benchmarked);
      ADD_FAILURE() << "accepted: \"" << value << "\"";
    } catch (const error& e) {
      EXPECT_EQ(e.headline().rfind("malformed --check-dims \"" + value + "\": ", 0), 0u) << e.headline();
      EXPECT_EQ(e.headline().find('\n'), std::string::npos) << e.headline();
      EXPECT_NE(e.headline().find("--check-dims \"--rows=1000 --cols=1000\""), std::string::npos)
          << e.headline();
    }
  }
  EXPECT_THROW(parse_check_dims_list({"--cols=7", "--cols=7 --rows=4096"}, benchmarked), error)
      << "the same shape twice";
}

class CheckDimsLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    m_services = m_gpu.services();
  }

  loop_settings settings(const std::vector<std::string>& check_dims = {"--rows=1000 --cols=1000"}) const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.dims = benchmarked;
    s.max_iterations = 4;
    s.run_dir = m_run_dir;
    s.memory_db = m_work.path() / "memory.db";
    s.check_shapes = parse_check_dims_list(check_dims, s.target.dims);
    return s;
  }

  step_outcome next(double speed, const std::string& tag, const std::string& extra = "") {
    testing::hand_over_version(m_kernel, m_run_dir, softmax_version(speed, extra), {tag});
    step_outcome out = run_loop_step(settings(), m_services);
    m_run_dir = out.run_dir;
    return out;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  scripted_gpu m_gpu;
  loop_services m_services;
};

TEST_F(CheckDimsLoop, AVersionThatFailsAtAnExtraShapeIsRejectedWithTheShapeNamedAndBlocked) {
  const step_outcome v0 = next(1.0, "");
  ASSERT_EQ(enum_name(v0.record->outcome), "baseline") << v0.record->reason;
  ASSERT_EQ(v0.record->checks.size(), 1u);
  EXPECT_EQ(v0.record->checks[0].dims, "--rows=1000 --cols=1000");
  EXPECT_EQ(v0.record->checks[0].status, "passed");
  EXPECT_EQ(m_gpu.validation_only_calls, 1) << "v0 is checked too";
  EXPECT_TRUE(fs::exists(v0.run_dir / "iter_v0" / "check_shapes" / "shape_1" / "benchmark_result.json"));
  const std::string proposal = read_text_file(v0.run_dir / "iter_v0" / "optimization_proposal.md");
  EXPECT_NE(proposal.find("## Shapes that must also pass"), std::string::npos) << proposal;
  EXPECT_NE(proposal.find("- `--rows=1000 --cols=1000`"), std::string::npos) << proposal;

  // Faster, and right at the benchmarked shape only.
  const int profiles = m_gpu.profile_calls;
  const step_outcome v1 = next(0.5, "assume_cols_multiple_of_1024", "// fails at --cols=1000");
  EXPECT_EQ(enum_name(v1.record->outcome), "rejected");
  EXPECT_EQ(v1.record->reason,
            "fails at --rows=1000 --cols=1000: validation failed (seed 0): wrong values: 12 of "
            "4194304 elements");
  EXPECT_FALSE(v1.record->eligible);
  EXPECT_TRUE(v1.record->median_ms.has_value()) << "timed at the benchmarked shape before the check";
  EXPECT_EQ(m_gpu.profile_calls, profiles) << "a version that fails a check is not profiled";
  ASSERT_EQ(v1.record->checks.size(), 1u);
  EXPECT_EQ(v1.record->checks[0].status, "failed");
  EXPECT_EQ(v1.manifest.best, 0);
  EXPECT_EQ(v1.manifest.blocked, std::vector<std::string>{v1.record->fingerprint});
  const auto history = memory::memory_store::open(settings().memory_db).history(v1.record->fingerprint);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].outcome, "rejected");
  const std::string summary = read_text_file(v1.run_dir / "iter_v1" / "iteration_summary.md");
  EXPECT_NE(summary.find("`--rows=1000 --cols=1000` failed (validation failed (seed 0)"), std::string::npos)
      << summary;

  // Manifest: which shapes were checked, and how each went.
  const run_manifest m = read_run_manifest(m_run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  EXPECT_EQ(m.iterations[0].checks[0].status, "passed");
  EXPECT_EQ(m.iterations[1].checks[0].status, "failed");
}

TEST_F(CheckDimsLoop, AVersionThatFailsTheBenchmarkedShapeLeavesTheShapesNotRun) {
  next(1.0, "");
  const int checks = m_gpu.validation_only_calls;
  const step_outcome v1 = next(0.5, "broken", "// fails validation");
  EXPECT_EQ(enum_name(v1.record->outcome), "rejected");
  ASSERT_EQ(v1.record->checks.size(), 1u);
  EXPECT_EQ(v1.record->checks[0].status, "not run");
  EXPECT_EQ(m_gpu.validation_only_calls, checks);
}

TEST_F(CheckDimsLoop, V0ThatFailsAShapeIsRejectedAndThereIsNoBaselineYet) {
  const step_outcome v0 = next(1.0, "", "// fails at --rows=1000");
  EXPECT_EQ(enum_name(v0.record->outcome), "rejected");
  EXPECT_EQ(v0.record->reason.rfind("fails at --rows=1000 --cols=1000: ", 0), 0u) << v0.record->reason;
  EXPECT_FALSE(v0.manifest.best);
  const std::string proposal = read_text_file(v0.run_dir / "iter_v0" / "optimization_proposal.md");
  EXPECT_NE(proposal.find("## Shapes that must also pass"), std::string::npos) << proposal;
  const step_outcome v1 = next(1.0, "handle_any_cols");
  EXPECT_EQ(enum_name(v1.record->outcome), "baseline") << v1.record->reason;
  EXPECT_EQ(v1.manifest.best, 1);
}

TEST_F(CheckDimsLoop, TheShapesAreFrozenAtV0) {
  const step_outcome v0 = next(1.0, "");
  ASSERT_EQ(v0.manifest.frozen.check_dims, std::vector<std::string>{"--rows=1000 --cols=1000"});
  ASSERT_EQ(v0.manifest.frozen.check_problem_sha256.size(), 1u);
  EXPECT_EQ(v0.manifest.frozen.check_problem_sha256[0].size(), 64u)
      << "the problem at the shape is hashed at v0";
  EXPECT_NE(v0.manifest.frozen.check_problem_sha256[0], v0.manifest.frozen.problem_sha256);
  for (const std::vector<std::string>& other :
       {std::vector<std::string>{}, std::vector<std::string>{"--rows=999 --cols=1000"},
        std::vector<std::string>{"--rows=1000 --cols=1000", "--cols=3"}}) {
    try {
      run_loop_step(settings(other), m_services);
      ADD_FAILURE() << "other check dims were accepted";
    } catch (const error& e) {
      EXPECT_NE(e.headline().find(
                    "extra validation shapes (--check-dims) is frozen at v0 (\"--rows=1000 --cols=1000\")"),
                std::string::npos)
          << e.headline();
    }
  }
  EXPECT_EQ(read_run_manifest(m_run_dir).iterations.size(), 1u);
}

TEST_F(CheckDimsLoop, AVersionThatDeclaresAnotherProblemAtAnExtraShapeStopsTheRun) {
  next(1.0, "");
  // The same buffers as v0 at cols=1024, half of them at cols=1000.
  std::string sized = softmax_version(0.8);
  const std::string annotation = "// kopt: input[rows*cols] output[rows*cols]";
  sized.replace(sized.find(annotation), annotation.size(),
                "// kopt: input[rows*cols*cols/1024] output[rows*cols*cols/1024]");
  write_file_atomic(m_kernel, sized);
  const step_outcome v1 = run_loop_step(settings(), m_services);
  EXPECT_TRUE(v1.problem_changed);
  EXPECT_EQ(enum_name(v1.record->outcome), "rejected");
  EXPECT_EQ(v1.record->reason.rfind("problem changed at --rows=1000 --cols=1000: ", 0), 0u)
      << v1.record->reason;
}

}  // namespace
}  // namespace kopt::loop
