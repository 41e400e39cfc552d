// The Triton problem as the parent records it and the children read it: the distribution of
// the timed calls' fresh inputs fitted to setup()'s values, the document's round trip, the
// plan every process makes from it, the digests that catch a kernel writing into its files,
// a kernel module's own setup() that declares another problem, and seed blindness.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.h"
#include "core/hash.h"
#include "harness/triton_problem.h"
#include "kernel/element_type.h"
#include "pipeline/triton_distribution.h"
#include "pipeline/triton_problem_step.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {
using harness::triton_problem;
using kernel::distribution_kind;

const kernel::element_type& type(const char* name) { return *kernel::element_type_by_name(name); }

TEST(TritonDistribution, ValuesSpreadLikeRandnAreDrawnFromANormalWithTheirMoments) {
  const auto d = fitted_distribution(type("float32"), json{{"min", -4.9}, {"max", 5.1}, {"mean", 0.01}, {"std", 1.0}});
  EXPECT_EQ(d.kind, distribution_kind::normal);
  EXPECT_DOUBLE_EQ(d.mean, 0.01);
  EXPECT_DOUBLE_EQ(d.stddev, 1.0);
  EXPECT_TRUE(d.fitted_to_setup);
}

TEST(TritonDistribution, BoundedFloatsStayInTheirRange) {
  // torch.rand: [0, 1), mean 0.5, spread 0.29; a normal would give negative inputs.
  const auto d = fitted_distribution(type("float16"), json{{"min", 0.0001}, {"max", 0.9999}, {"mean", 0.5}, {"std", 0.29}});
  EXPECT_EQ(d.kind, distribution_kind::uniform);
  EXPECT_DOUBLE_EQ(std::get<double>(d.low), 0.0001);
  EXPECT_DOUBLE_EQ(std::get<double>(d.high), 0.9999);
}

TEST(TritonDistribution, IndicesAreUniformOverTheirWholeRangeInclusive) {
  const auto d = fitted_distribution(type("int64"), json{{"min", 0}, {"max", 31999}, {"mean", 16000.0}, {"std", 9000.0}});
  EXPECT_EQ(d.kind, distribution_kind::uniform);
  EXPECT_EQ(std::get<std::int64_t>(d.low), 0);
  EXPECT_EQ(std::get<std::int64_t>(d.high), 32000);  // exclusive: 31999 can be drawn
}

TEST(TritonDistribution, FewDistinctValuesAreChosenAmong) {
  const auto mask = fitted_distribution(type("bool"), json{{"min", 0}, {"max", 1}, {"distinct", {0, 1}}});
  EXPECT_EQ(mask.kind, distribution_kind::choice);
  ASSERT_EQ(mask.choices.size(), 2u);
  EXPECT_EQ(std::get<std::int64_t>(mask.choices[1]), 1);
  const auto scales = fitted_distribution(type("float32"), json{{"min", 0.5}, {"max", 2.0}, {"distinct", {0.5, 2.0}}});
  ASSERT_EQ(scales.choices.size(), 2u);
  EXPECT_DOUBLE_EQ(std::get<double>(scales.choices[0]), 0.5);
}

TEST(TritonDistribution, WithoutAFiniteValueTheTypesDefaultIsUsed) {
  const auto d = fitted_distribution(type("float32"), json{{"count", 4}, {"non_finite", 4}});
  EXPECT_EQ(d.kind, distribution_kind::uniform);
  EXPECT_FALSE(d.fitted_to_setup);
}

// A problem of two seeds over a real folder: x (in, 4 floats) and y (out).
struct problem_files {
  kopt::testing::scratch_dir dir;
  triton_problem problem;

  problem_files(const std::string& x0, const std::string& x1) {
    problem.dir = dir.path();
    problem.owner = "kernel";
    problem.module = "/k/scale.py";
    problem.seeds = {0, 1};
    problem.order = {"x", "y", "n"};
    problem.scalars = json{{"n", 4}};
    harness::triton_tensor x{"x", "float32", {4}, {1}, 4, kernel::buffer_role::in, {}};
    x.values = fitted_distribution(type("float32"), json{{"min", -1.0}, {"max", 1.0}, {"mean", 0.0}, {"std", 0.5}});
    problem.tensors = {x, {"y", "float32", {2, 2}, {1, 2}, 4, kernel::buffer_role::out, {}}};
    write(0, x0);
    write(1, x1);
  }

  void write(std::uint64_t seed, const std::string& bytes) {
    const std::string file = harness::triton_input_file(seed, "x");
    dir.write(file, bytes);
    problem.digests[file] = sha256_hex(bytes);
  }
};

TEST(TritonProblem, RoundTripsAndPlansOneBufferPerTensorOverItsStorage) {
  problem_files files(std::string(16, 'a'), std::string(16, 'b'));
  const triton_problem back = harness::triton_problem_from_json(harness::to_json(files.problem));
  EXPECT_EQ(back.order, files.problem.order);
  EXPECT_EQ(back.scalars["n"], 4);
  ASSERT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(back.tensors[1].strides, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(back.tensors[0].values.kind, distribution_kind::uniform);
  EXPECT_TRUE(back.tensors[0].values.fitted_to_setup);
  const kernel::kernel_plan plan = harness::plan_of(back);
  EXPECT_EQ(plan.backend, kernel::backend::triton);
  ASSERT_EQ(plan.buffers.size(), 2u);
  EXPECT_EQ(plan.buffers[1].param.name, "y");
  EXPECT_EQ(plan.buffers[1].bytes, 16);
  EXPECT_EQ(plan.buffers[1].role, kernel::buffer_role::out);
  EXPECT_EQ(plan.total_bytes, 32);
}

TEST(TritonProblem, InputsReadBackAreSetupsBytesAndAChangedFileIsTheKernelsDoing) {
  problem_files files(std::string(16, 'a'), std::string(16, 'b'));
  const auto contents = harness::read_triton_inputs(files.problem, 1, true);
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(contents[0].size(), 16u);
  EXPECT_EQ(static_cast<char>(contents[0][3]), 'b');
  EXPECT_TRUE(contents[1].empty());  // an output: poisoned, never read
  files.dir.write(harness::triton_input_file(1, "x"), std::string(16, 'z'));
  try {
    harness::read_triton_inputs(files.problem, 1, true);
    FAIL() << "a changed input file was read";
  } catch (const harness::problem_changed& changed) {
    EXPECT_EQ(changed.reason.rfind("problem tampering: the inputs setup() made for x (seed 1) changed", 0), 0u)
        << changed.reason;
  }
  EXPECT_NO_THROW(harness::read_triton_inputs(files.problem, 1, false));  // the kernel's side does not check
}

TEST(TritonProblem, AKernelSetupThatDeclaresAnotherProblemIsNamed) {
  problem_files files(std::string(16, 'a'), std::string(16, 'b'));
  files.problem.owner = "reference";
  const json same{{"tensors", {{{"name", "x"}, {"dtype", "float32"}, {"shape", {4}}, {"role", "in"}},
                               {{"name", "y"}, {"dtype", "float32"}, {"shape", {2, 2}}, {"role", "out"}}}},
                  {"scalars", {{"n", 4}}}};
  EXPECT_EQ(harness::declared_mismatch(files.problem, same), "");
  json half = same;
  half["tensors"][0]["shape"] = {2};
  EXPECT_EQ(harness::declared_mismatch(files.problem, half),
            "the kernel's setup() makes x a float32[2] where the reference's setup() makes it a float32[4]");
  json fewer = same;
  fewer["scalars"]["n"] = 2;
  EXPECT_EQ(harness::declared_mismatch(files.problem, fewer),
            "the kernel's setup() gives n = 2 where the reference's setup() gives 4");
  json inout = same;
  inout["tensors"][1]["role"] = "inout";
  EXPECT_NE(harness::declared_mismatch(files.problem, inout).find("makes y inout where"), std::string::npos);
}

TEST(TritonProblem, TheSameInputsForTwoSeedsAreSeedBlindness) {
  problem_files different(std::string(16, 'a'), std::string(16, 'b'));
  EXPECT_FALSE(seed_blindness(different.problem).has_value());
  problem_files same(std::string(16, 'a'), std::string(16, 'a'));
  const auto blind = seed_blindness(same.problem);
  ASSERT_TRUE(blind.has_value());
  EXPECT_EQ(blind->rfind("seed blindness: setup() in /k/scale.py returned the same inputs for seeds 0 and 1", 0), 0u)
      << *blind;
}

}  // namespace
}  // namespace kopt::pipeline
