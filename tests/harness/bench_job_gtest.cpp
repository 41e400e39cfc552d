#include "harness/bench_job.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::harness {
namespace {

// The field and problem a reader names for `document`, or "read" when it reads it.
std::string refusal_of(const json& document) {
  try {
    (void)from_document<bench_job>(document);
    return "read";
  } catch (const document_error& e) {
    return e.headline();
  }
}

TEST(BenchJob, RoundTripsThroughJson) {
  bench_job job;
  job.kind = job_kind::profile;
  job.kernel_source = "/k/softmax.cu";
  job.kernel_library = "/cache/libsoftmax.so";
  job.reference_source = "/k/ref.cu";
  job.backend = "cuda";
  job.dims = {{"rows", "4096", false}, {"seed", "7", true}};
  job.ptr_size = 1024;
  job.seed = 42;
  job.sampling.hot = true;
  job.atol = 1e-5;
  job.profile_calls = 20;
  const json document = to_document(job);
  EXPECT_EQ(document["schema"], "kopt.harness_job/v6");
  const bench_job back = from_document<bench_job>(document);
  EXPECT_EQ(back.kind, job_kind::profile);
  EXPECT_EQ(back.kernel_library, job.kernel_library);
  ASSERT_EQ(back.dims.size(), 2u);
  EXPECT_EQ(back.dims[1].name, "seed");
  EXPECT_TRUE(back.dims[1].via_dim_flag);
  EXPECT_EQ(back.ptr_size, std::optional<std::int64_t>(1024));
  EXPECT_EQ(back.seed, 42u);
  EXPECT_TRUE(back.sampling.hot);
  EXPECT_EQ(back.atol, std::optional<double>(1e-5));
  EXPECT_FALSE(back.rtol.has_value());
  EXPECT_EQ(back.profile_calls, std::optional<int>(20));
  EXPECT_FALSE(is_timed(back)) << "a profile is never timed";
  EXPECT_FALSE(has_python_reference(back));
}

TEST(BenchJob, PythonReferenceTravelsWithItsRunner) {
  bench_job job;
  job.kind = job_kind::reference;
  job.validation.emplace();
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
  job.kind = job_kind::reference;
  job.reference_source = "/k/ref.cu";
  job.validation =
      job_validation{"/dev/shm/kopt-evidence-x/reference",
                     {{evidence_kind::seed, 7, "before timing"}, {evidence_kind::call, 123, "timed"}},
                     2,
                     false};
  const bench_job back = from_document<bench_job>(to_document(job));
  EXPECT_EQ(back.kind, job_kind::reference);
  EXPECT_TRUE(has_native_reference(back));
  EXPECT_FALSE(is_timed(back)) << "its outputs only (its timing cached)";
  EXPECT_EQ(evidence_dir_of(back), "/dev/shm/kopt-evidence-x/reference");
  const std::vector<evidence_key>& keys = validation_of(back).evidence;
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[1].kind, evidence_kind::call);
  EXPECT_EQ(keys[1].value, 123u);
  EXPECT_EQ(folder_name(keys[0]), "seed_7");
  EXPECT_EQ(folder_name(keys[1]), "call_123");
}

TEST(BenchJob, ATritonJobCarriesItsProblemAndAJobOfAnotherVersionIsRefused) {
  bench_job job;
  job.backend = "triton";
  job.host_only = true;
  job.validation.emplace();
  job.idle_peers = 0;
  job.triton_problem = json{{"owner", "reference"}};
  const bench_job back = from_document<bench_job>(to_document(job));
  EXPECT_EQ(back.triton_problem["owner"], "reference");
  EXPECT_TRUE(back.host_only);
  json old = to_document(job);
  old["schema"] = "kopt.harness_job/v5";
  EXPECT_EQ(refusal_of(old),
            "field schema: is \"kopt.harness_job/v5\", expected \"kopt.harness_job/v6\" (a document "
            "of another kopt version, or not kopt's)");
}

TEST(BenchJob, AnUnknownKindIsRefused) {
  bench_job job;
  job.validation.emplace();
  job.idle_peers = 0;
  json document = to_document(job);
  document["kind"] = "judge";
  EXPECT_NE(refusal_of(document).find("field kind"), std::string::npos) << refusal_of(document);
}

// Each kind carries its own part and no other: a job that means one thing is never read as
// another (a profile with a validation folder, a bench that also says it takes turns).
TEST(BenchJob, EachKindHasItsOwnPartAndNoOther) {
  bench_job kernel;
  EXPECT_EQ(refusal_of(to_document(kernel)), "field validation: is missing: a kernel job needs one");
  kernel.validation.emplace();
  kernel.idle_peers = 0;
  EXPECT_EQ(refusal_of(to_document(kernel)), "read");
  kernel.profile_calls = 3;
  EXPECT_EQ(refusal_of(to_document(kernel)), "field profile_calls: is not part of a kernel job");

  bench_job profile;
  profile.kind = job_kind::profile;
  profile.profile_calls = 1;
  EXPECT_EQ(refusal_of(to_document(profile)), "read");
  profile.validation.emplace();
  EXPECT_EQ(refusal_of(to_document(profile)), "field validation: is not part of a profile job");

  bench_job blocks;
  blocks.kind = job_kind::blocks;
  EXPECT_EQ(refusal_of(to_document(blocks)), "field turn_peers: is missing: a blocks job needs one");
  blocks.turn_peers = 1;
  EXPECT_EQ(refusal_of(to_document(blocks)), "read");
  EXPECT_TRUE(is_timed(blocks));
  blocks.idle_peers = 1;
  EXPECT_EQ(refusal_of(to_document(blocks)), "field idle_peers: is not part of a blocks job");

  bench_job problem;
  problem.kind = job_kind::problem;
  problem.validation = job_validation{"/tmp/p", {}, 2, false};
  EXPECT_EQ(refusal_of(to_document(problem)), "field problem_owner: is missing: a problem job needs one");
  problem.problem_owner = "reference";
  EXPECT_EQ(refusal_of(to_document(problem)), "read");
  EXPECT_FALSE(is_timed(problem)) << "a problem is never timed";
}

TEST(BenchJob, NumbersOutsideTheirRangeAreRefusedByName) {
  bench_job profile;
  profile.kind = job_kind::profile;
  profile.profile_calls = 1;
  json document = to_document(profile);
  document["profile_calls"] = 0;
  EXPECT_NE(refusal_of(document).find("field profile_calls"), std::string::npos) << refusal_of(document);
  bench_job kernel;
  kernel.validation.emplace();
  kernel.idle_peers = 0;
  document = to_document(kernel);
  document["validation"]["seeds"] = -1;
  EXPECT_NE(refusal_of(document).find("field validation.seeds"), std::string::npos) << refusal_of(document);
}

}  // namespace
}  // namespace kopt::harness
