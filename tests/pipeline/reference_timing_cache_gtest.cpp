// The reference's timing kept between benches: a second bench of the same problem takes it from
// the cache (its reference process only makes outputs), anything its key covers that changed
// times it again, and a kernel that could have written the cache never gets to use or fill it.
// Through the bench pipeline with real builds and a recorded worker, as a user's runs go.
#include "pipeline/reference_timing_cache.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/json_io.h"
#include "pipeline/bench_pipeline.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"
#include "support/timings.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

// The kernel's child as recorded, restricted to writing where a real one may (its evidence,
// devices, /proc): not the cache. `runner_torch`: what the reference's Python runner reports
// of torch (null: a native reference).
recorded_worker::responder sandboxed_children(std::optional<std::string> runner_torch = std::nullopt) {
  const recorded_worker::responder children = two_children(1.0f);
  return [=](const harness::bench_job& job) {
    wrapped_child_run run = children(job);
    auto report = from_document<harness::child_report>(*run.result);
    if (job.kind == harness::job_kind::reference) {
      if (!kopt::harness::is_timed(job)) report.reference.reset();  // a process that only made outputs
      if (runner_torch) {
        report.reference_runner = harness::runner_facts{};
        report.reference_runner->torch.version = *runner_torch;
      }
    } else {
      report.sandbox = "Landlock ABI 6: writes only under /dev, /proc, " +
                       fs::path(kopt::harness::evidence_dir_of(job)).parent_path().string();
    }
    run.result = to_document(report);
    return run;
  };
}

class ReferenceTimingCache : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_CACHE_DIR", m_compile_cache.path().c_str(), 1); }

  bench_request vector_add(const std::string& n = "1048576") const {
    bench_request request;
    request.target.kernel = testing::source_dir() / "examples" / "vector_add.cu";
    request.target.ref = testing::source_dir() / "examples" / "vector_add_ref.cu";
    request.target.dims = {{"N", n}};
    request.reference_timing_folder = m_cache.path();
    return request;
  }

  // Benches `request` with `respond`; the reference's child (the last run) was asked to time.
  struct bench_run {
    json document;
    bool reference_timed = false;
    std::size_t reference_runs = 0;
  };
  static bench_run bench(const bench_request& request, const recorded_worker::responder& respond) {
    recorded_worker worker(recorded_h200(), respond);
    const bench_outcome outcome = run_bench(request, worker);
    bench_run run{outcome.document};
    for (const recorded_run& child : worker.runs()) {
      if (child.job.kind == harness::job_kind::reference) ++run.reference_runs;
    }
    run.reference_timed = !worker.runs().empty() &&
                          worker.runs().back().job.kind == harness::job_kind::reference &&
                          kopt::harness::is_timed(worker.runs().back().job);
    return run;
  }

  std::size_t entries() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(m_cache.path())) ++n;
    return n;
  }

  testing::scratch_dir m_compile_cache;
  testing::scratch_dir m_cache;
};

TEST_F(ReferenceTimingCache, ASecondBenchOfTheSameProblemTakesTheReferencesTimingFromTheCache) {
  const bench_run first = bench(vector_add(), sandboxed_children());
  EXPECT_TRUE(first.reference_timed);
  ASSERT_EQ(first.document["status"], "ok");
  EXPECT_EQ(first.document["reference_timing_cache"]["from_cache"], false);
  EXPECT_EQ(first.document["reference_timing_cache"]["stored"], true) << first.document["reference_timing_cache"];
  EXPECT_EQ(entries(), 1u);

  const bench_run second = bench(vector_add(), sandboxed_children());
  EXPECT_FALSE(second.reference_timed) << "the reference's process only makes the outputs";
  EXPECT_EQ(second.reference_runs, 1u);
  ASSERT_EQ(second.document["status"], "ok") << second.document["reason"];
  EXPECT_EQ(second.document["correctness"]["passed"], true) << "its outputs are still compared";
  EXPECT_EQ(second.document["reference_timing_cache"]["from_cache"], true);
  EXPECT_FALSE(second.document["reference_timing_cache"]["measured_at"].get<std::string>().empty());
  // The first bench's timing, as its reference's process reported it.
  const measure::timing_document kept = *reference_report_ok().reference;
  EXPECT_DOUBLE_EQ(second.document["reference"]["median_ms"].get<double>(), kept.median_ms);
  EXPECT_NEAR(second.document["speedup_vs_reference"].get<double>(),
              kept.headline_ms() / kernel_report_ok().kernel->headline_ms(), 1e-9);
}

TEST_F(ReferenceTimingCache, AChangedReferenceDimensionOrToleranceIsTimedAgain) {
  ASSERT_TRUE(bench(vector_add(), sandboxed_children()).reference_timed);

  EXPECT_TRUE(bench(vector_add("1048577"), sandboxed_children()).reference_timed) << "another N";

  bench_request tolerance = vector_add();
  tolerance.atol = 1e-3;
  EXPECT_TRUE(bench(tolerance, sandboxed_children()).reference_timed) << "another atol";

  // The same reference with one more line: another file, whatever its name.
  const testing::scratch_dir sources;
  const fs::path changed = sources.path() / "vector_add_ref.cu";
  fs::copy_file(testing::source_dir() / "examples" / "vector_add_ref.cu", changed);
  std::ofstream(changed, std::ios::app) << "// edited\n";
  bench_request edited = vector_add();
  edited.target.ref = changed;
  EXPECT_TRUE(bench(edited, sandboxed_children()).reference_timed) << "a changed reference";

  bench_request hot = vector_add();
  hot.job.sampling.hot = true;
  EXPECT_TRUE(bench(hot, sandboxed_children()).reference_timed) << "another protocol";

  bench_request floor = vector_add();
  floor.job.sampling.min_seconds = 0.5;
  EXPECT_TRUE(bench(floor, sandboxed_children()).reference_timed) << "another minimum sampling time";

  EXPECT_FALSE(bench(vector_add(), sandboxed_children()).reference_timed) << "the first problem is still kept";
  EXPECT_EQ(entries(), 6u);
}

TEST_F(ReferenceTimingCache, AnotherTorchThanTheCachedTimingsIsTimedNow) {
  ASSERT_TRUE(bench(vector_add(), sandboxed_children("2.9.0")).reference_timed);
  const bench_run upgraded = bench(vector_add(), sandboxed_children("2.10.0"));
  EXPECT_EQ(upgraded.reference_runs, 2u) << "outputs first, then timed once the runner named another torch";
  EXPECT_TRUE(upgraded.reference_timed);
  EXPECT_EQ(upgraded.document["reference_timing_cache"]["from_cache"], false);
  EXPECT_EQ(upgraded.document["reference_timing_cache"]["stored"], true);
  EXPECT_FALSE(bench(vector_add(), sandboxed_children("2.10.0")).reference_timed);
}

TEST_F(ReferenceTimingCache, AKernelThatCouldHaveWrittenTheCacheNeitherUsesNorFillsIt) {
  const recorded_worker::responder unrestricted = two_children(1.0f);  // no sandbox in its result
  const bench_run free = bench(vector_add(), unrestricted);
  EXPECT_TRUE(free.reference_timed);
  EXPECT_EQ(free.document["reference_timing_cache"]["stored"], false);
  EXPECT_NE(free.document["reference_timing_cache"]["why"].get<std::string>().find("not restricted"), std::string::npos);
  EXPECT_EQ(entries(), 0u);

  const recorded_worker::responder children = sandboxed_children();
  const fs::path cache_parent = m_cache.path().parent_path();
  const recorded_worker::responder reaching = [=](const harness::bench_job& job) {
    wrapped_child_run run = children(job);
    if (job.kind != harness::job_kind::reference) {
      (*run.result)["sandbox"] = "Landlock ABI 6: writes only under /dev, /proc, " + cache_parent.string() + "/";
    }
    return run;
  };
  const bench_run reached = bench(vector_add(), reaching);
  EXPECT_TRUE(reached.reference_timed);
  EXPECT_NE(reached.document["reference_timing_cache"]["why"].get<std::string>().find("KOPT_CACHE_DIR"),
            std::string::npos);
  EXPECT_EQ(entries(), 0u);

  bench_request fresh = vector_add();
  fresh.reference_timing_folder.reset();  // --fresh-reference
  const bench_run asked = bench(fresh, sandboxed_children());
  EXPECT_TRUE(asked.reference_timed);
  EXPECT_TRUE(asked.document["reference_timing_cache"].is_null());
  EXPECT_EQ(entries(), 0u);
}

TEST_F(ReferenceTimingCache, AStaleDamagedOrMisnamedEntryIsAMiss) {
  const reference_timing_cache cache(m_cache.path());
  const measure::timing_document timing = testing::timing_around(0.5);
  ASSERT_EQ(cache.store("k1", json{{"n", 1}}, timing, std::nullopt), "");
  ASSERT_TRUE(cache.find("k1").has_value());
  EXPECT_EQ(to_document(cache.find("k1")->timing), to_document(timing));
  EXPECT_FALSE(cache.find("k2").has_value());

  const fs::path entry = m_cache.path() / "k1.json";
  fs::copy_file(entry, m_cache.path() / "k2.json");
  EXPECT_FALSE(cache.find("k2").has_value()) << "an entry answers only for its own key";

  json old = read_json_file(entry);
  old["measured_at_unix"] = old["measured_at_unix"].get<std::int64_t>() - 25 * 3600;
  write_json_file(entry, old);
  EXPECT_FALSE(cache.find("k1").has_value()) << "older than a day";

  ASSERT_EQ(cache.store("k1", json{{"n", 1}}, timing, std::nullopt), "");
  ASSERT_TRUE(cache.find("k1").has_value()) << "stored afresh";
  json lacking = read_json_file(entry);
  lacking["timing"].erase("samples_ms");
  write_json_file(entry, lacking);
  EXPECT_FALSE(cache.find("k1").has_value()) << "a timing without its samples";

  std::ofstream(entry, std::ios::trunc) << "{\"schema\": ";
  EXPECT_FALSE(cache.find("k1").has_value()) << "cut short";
}

// A Triton problem's setup() tensors lie in a folder of each run's own: the same problem from
// another folder is the same key, and other tensors (their digests) are another.
TEST(ReferenceTimingKey, ATritonProblemIsKeyedByItsTensorsNotByTheFolderTheyLieIn) {
  const kernel::kernel_plan plan =
      kernel::plan_kernel("axpy.cu", "extern \"C\" void solve(const float* x, float* y, int N) {}\n", std::nullopt,
                          {{"N", "4096"}}, std::nullopt, {});
  env::gpu_device device;
  device.uuid = "GPU-00000000-0000-0000-0000-000000000000";
  const auto key = [&](const std::string& dir, const std::string& digest) {
    harness::bench_job job;
    job.triton_problem = json{{"dir", dir}, {"module", "softmax.py"}, {"digests", json{{"x", digest}}}};
    return reference_timing_key(reference_timing_key_fields(job, plan, device, "580.159.04", "files"));
  };
  EXPECT_EQ(key("/dev/shm/kopt-problem-aaaaaa", "d1"), key("/dev/shm/kopt-problem-bbbbbb", "d1"));
  EXPECT_NE(key("/dev/shm/kopt-problem-aaaaaa", "d1"), key("/dev/shm/kopt-problem-aaaaaa", "d2"));
}

TEST(ReferenceTimingCacheReach, OnlyAFolderOutsideEveryAllowedOneIsOutOfReach) {
  const std::optional<std::string> sandbox = "Landlock ABI 6: writes only under /dev, /proc, /tmp, /home/u/run/evidence";
  EXPECT_TRUE(out_of_kernel_reach(sandbox, "/home/u/.cache/kopt/reference_timing"));
  EXPECT_TRUE(out_of_kernel_reach(sandbox, "/tmpfs/cache")) << "a sibling that only starts alike";
  EXPECT_FALSE(out_of_kernel_reach(sandbox, "/tmp/kopt/reference_timing"));
  EXPECT_FALSE(out_of_kernel_reach(sandbox, "/home/u/run/evidence/../evidence/x"));
  EXPECT_FALSE(out_of_kernel_reach("no Landlock in this kernel: writes are not restricted", "/home/u/c"));
  EXPECT_FALSE(out_of_kernel_reach(std::nullopt, "/home/u/c"));
}

TEST(ReferenceTimingCacheReach, FilesWrittenInPlaceReachOnlyTheFoldersThatHoldThem) {
  const std::optional<std::string> sandbox =
      "Landlock ABI 7: writes only under /home/u/run, /home/u/run/tmp, /proc/42; in place to /dev/null, "
      "/dev/nvidia0, /tmp/nvidia/nsight_compute/lock";
  EXPECT_TRUE(out_of_kernel_reach(sandbox, "/tmp/kopt/reference_timing")) << "/tmp is closed, only a lock file is open";
  EXPECT_TRUE(out_of_kernel_reach(sandbox, "/dev/shm/cache"));
  EXPECT_FALSE(out_of_kernel_reach(sandbox, "/home/u/run/tmp/cache"));
  EXPECT_FALSE(out_of_kernel_reach(sandbox, "/tmp/nvidia")) << "a folder that holds a file written in place";
  EXPECT_FALSE(out_of_kernel_reach("unavailable: this Linux kernel has no Landlock", "/home/u/c"));
}

}  // namespace
}  // namespace kopt::pipeline
