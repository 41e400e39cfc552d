#include "harness/bench_job.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::harness {
namespace {

TEST(BenchJob, RoundTripsThroughJson) {
  bench_job job;
  job.kernel_source = "/k/softmax.cu";
  job.kernel_library = "/cache/libsoftmax.so";
  job.reference_source = "/k/ref.cu";
  job.reference_library = "/cache/libref.so";
  job.backend = "cuda";
  job.dims = {{"rows", "4096", false}, {"seed", "7", true}};
  job.ptr_size = 1024;
  job.own_flag_names = {"seed", "gpu"};
  job.seed = 42;
  job.sampling.hot = true;
  job.atol = 1e-5;
  job.profile_mode = true;
  job.profile_calls = 20;
  job.timing_blocks = true;
  const json document = to_document(job);
  EXPECT_EQ(document["schema"], "kopt.harness_job/v5");
  const bench_job back = from_document<bench_job>(document);
  EXPECT_EQ(back.kernel_library, job.kernel_library);
  ASSERT_EQ(back.dims.size(), 2u);
  EXPECT_EQ(back.dims[1].name, "seed");
  EXPECT_TRUE(back.dims[1].via_dim_flag);
  EXPECT_EQ(back.ptr_size, std::optional<std::int64_t>(1024));
  EXPECT_EQ(back.seed, 42u);
  EXPECT_TRUE(back.sampling.hot);
  EXPECT_EQ(back.atol, std::optional<double>(1e-5));
  EXPECT_FALSE(back.rtol.has_value());
  EXPECT_TRUE(back.profile_mode);
  EXPECT_EQ(back.profile_calls, 20);
  EXPECT_TRUE(back.timing_blocks);
  EXPECT_FALSE(has_python_reference(back));
}

TEST(BenchJob, PythonReferenceTravelsWithItsRunner) {
  bench_job job;
  job.reference_source = "/k/softmax_ref.py";
  job.python = "/opt/venv/bin/python3";
  job.python_runner = "/opt/kopt/share/kopt/kopt_runner.py";
  job.harness_abi_library = "/opt/kopt/lib/libkopt_harness_abi.so";
  const bench_job back = from_document<bench_job>(to_document(job));
  EXPECT_TRUE(has_python_reference(back));
  EXPECT_EQ(back.python, job.python);
  EXPECT_EQ(back.python_runner, job.python_runner);
  EXPECT_EQ(back.harness_abi_library, job.harness_abi_library);
  EXPECT_TRUE(back.reference_library.empty());
}

TEST(BenchJob, AReferenceJobCarriesTheKeysOfTheInputsToMakeAgain) {
  bench_job job;
  job.role = job_role::reference;
  job.reference_source = "/k/ref.cu";
  job.evidence_dir = "/dev/shm/kopt-evidence-x/reference";
  job.evidence = {{evidence_kind::seed, 7, "before timing"}, {evidence_kind::call, 123, "timed"}};
  const bench_job back = from_document<bench_job>(to_document(job));
  EXPECT_TRUE(is_reference_role(back));
  EXPECT_TRUE(has_native_reference(back));
  EXPECT_EQ(back.evidence_dir, job.evidence_dir);
  ASSERT_EQ(back.evidence.size(), 2u);
  EXPECT_EQ(back.evidence[1].kind, evidence_kind::call);
  EXPECT_EQ(back.evidence[1].value, 123u);
  EXPECT_EQ(folder_name(back.evidence[0]), "seed_7");
  EXPECT_EQ(folder_name(back.evidence[1]), "call_123");
}

TEST(BenchJob, ATritonJobCarriesItsProblemAndAJobOfAnotherVersionIsRefused) {
  bench_job job;
  job.backend = "triton";
  job.host_only = true;
  job.triton_problem = json{{"owner", "reference"}};
  const bench_job back = from_document<bench_job>(to_document(job));
  EXPECT_EQ(back.triton_problem["owner"], "reference");
  EXPECT_TRUE(back.host_only);
  json old = to_document(job);
  old["schema"] = "kopt.harness_job/v2";
  try {
    (void)from_document<bench_job>(old);
    FAIL() << "a v2 job was read";
  } catch (const document_error& e) {
    EXPECT_EQ(e.headline(), "field schema: is \"kopt.harness_job/v2\", expected \"kopt.harness_job/v5\" (a document of "
                            "another kopt version, or not kopt's)");
  }
}

TEST(BenchJob, AnUnknownRoleIsRefused) {
  json document = to_document(bench_job{});
  document["role"] = "judge";
  EXPECT_THROW((void)from_document<bench_job>(document), document_error);
}

}  // namespace
}  // namespace kopt::harness
