// `kopt compare` with several candidates and `kopt bench` with several kernels, spread over 1, 2
// and 8 recorded GPUs (--gpus): each comparison or bench runs wholly on one GPU (its two
// versions, or its kernel and reference, on the same device), the GPUs share the work, a GPU
// that stops answering is dropped and its work measured again on another, and the documents
// keep the order the files were given in.
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/recorded_command_run.h"
#include "core/files.h"
#include "pipeline/bench_result.h"
#include "pipeline/spread_results.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"
#include "support/timings.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using pipeline::recorded_worker;
using SpreadCommands = recorded_command_test;

// Copies of the vector add example named `stems` (the kernel files a user would give).
std::vector<std::string> copies_of_vector_add(const testing::scratch_dir& dir,
                                              const std::vector<std::string>& stems,
                                              const std::string& example_file) {
  std::vector<std::string> files;
  for (const std::string& stem : stems) {
    files.push_back(dir.write(stem + ".cu", read_text_file(example_file, "example")).string());
  }
  return files;
}

// Blocks of turns timed as the file's name says: "faster" 3 % under the baseline's 0.020 ms,
// "slower" 3 % over it, anything else alike.
void time_blocks_by_name(recorded_worker& worker) {
  worker.respond_to_blocks([](const harness::bench_job& job, int calls) {
    double ms = 0.020;
    if (job.kernel_source.find("faster") != std::string::npos) ms = 0.0194;
    if (job.kernel_source.find("slower") != std::string::npos) ms = 0.0206;
    return pipeline::timing_block{
        testing::timing_of_samples(std::vector<double>(static_cast<std::size_t>(calls), ms)), "", ""};
  });
}

TEST_F(SpreadCommands, CompareSpreadsItsCandidatesOverTwoGpusEachComparisonWhollyOnOne) {
  recorded_worker worker(pipeline::recorded_h200s(2), pipeline::two_children(1.0f));
  time_blocks_by_name(worker);
  const std::vector<std::string> candidates =
      copies_of_vector_add(m_out, {"same", "slower", "faster"}, example("vector_add.cu"));
  std::vector<std::string> words = {"compare", example("vector_add.cu")};
  words.insert(words.end(), candidates.begin(), candidates.end());
  for (const char* w : {"--N=1048576", "--gpus", "all", "--max-seconds", "5", "--json"})
    words.emplace_back(w);
  const testing::captured_run r = run(words, worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;

  const pipeline::spread_results document = pipeline::read_spread_results(json::parse(r.out), "--json");
  EXPECT_EQ(document.command, "kopt compare");
  const std::vector<pipeline::spread_entry>& results = document.results;
  ASSERT_EQ(results.size(), 3U);
  std::map<std::string, int> gpu_of;
  std::set<int> used;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    EXPECT_EQ(results[i].file, candidates[i]) << "the results keep the order the candidates were given in";
    gpu_of[candidates[i]] = results[i].gpu;
    used.insert(gpu_of[candidates[i]]);
  }
  EXPECT_EQ(used, (std::set<int>{0, 1})) << "both GPUs compared";
  EXPECT_EQ(results[0].document->at("outcome"), "neutral");
  EXPECT_EQ(results[1].document->at("outcome"), "negative");
  EXPECT_EQ(results[2].document->at("outcome"), "positive");

  // Each comparison held both versions open on the GPU its entry names.
  ASSERT_EQ(worker.opened().size(), 3U);
  for (const pipeline::recorded_turns_opened& opened : worker.opened()) {
    ASSERT_EQ(opened.jobs.size(), 2U);
    std::string candidate;
    for (const harness::bench_job& job : opened.jobs) {
      for (const std::string& c : candidates) {
        if (job.kernel_source.find(fs::path(c).filename().string()) != std::string::npos) candidate = c;
      }
    }
    ASSERT_FALSE(candidate.empty());
    EXPECT_EQ(opened.device.ordinal, gpu_of[candidate]) << candidate;
  }
}

TEST_F(SpreadCommands, BenchOfEightKernelsOnEightGpusBenchesEachWithItsReferenceOnItsOwnGpu) {
  recorded_worker worker(pipeline::recorded_h200s(8), pipeline::two_children(1.0f));
  std::vector<std::string> stems;
  for (int i = 0; i < 8; ++i) stems.push_back("k" + std::to_string(i));
  const std::vector<std::string> kernels = copies_of_vector_add(m_out, stems, example("vector_add.cu"));
  std::vector<std::string> words = {"bench"};
  words.insert(words.end(), kernels.begin(), kernels.end());
  for (const std::string& w : {std::string("--ref"), example("vector_add_ref.cu"), std::string("--N=1048576"),
                               std::string("--gpus"), std::string("all"), std::string("--json")}) {
    words.push_back(w);
  }
  const testing::captured_run r = run(words, worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;

  const pipeline::spread_results document = pipeline::read_spread_results(json::parse(r.out), "--json");
  EXPECT_EQ(document.command, "kopt bench");
  const std::vector<pipeline::spread_entry>& results = document.results;
  ASSERT_EQ(results.size(), 8U);
  std::set<int> used;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(results[i].file, kernels[i]);
    used.insert(results[i].gpu);
    ASSERT_TRUE(results[i].document.has_value()) << kernels[i];
    const pipeline::bench_result result = pipeline::read_bench_result(*results[i].document, "--json");
    EXPECT_TRUE(result.ok()) << kernels[i];
    EXPECT_TRUE(result.speedup_vs_reference.has_value()) << kernels[i];
  }
  EXPECT_EQ(used.size(), 8U) << "eight kernels, eight GPUs: one each";
  // On each GPU, one kernel's process and one reference's: no speedup divides times from two GPUs.
  std::map<int, std::multiset<std::string>> kinds_on;
  for (const pipeline::recorded_run& child : worker.runs())
    kinds_on[child.device.ordinal].insert(enum_name(child.job.kind));
  ASSERT_EQ(kinds_on.size(), 8U);
  for (const auto& [gpu, kinds] : kinds_on) {
    EXPECT_EQ(kinds.count("kernel"), 1U) << "GPU " << gpu;
    EXPECT_EQ(kinds.count("reference"), 1U) << "GPU " << gpu;
  }
}

TEST_F(SpreadCommands, AGpuThatStopsAnsweringIsDroppedAndItsKernelBenchedOnAnother) {
  recorded_worker worker(pipeline::recorded_h200s(2), pipeline::two_children(1.0f));
  worker.lose_gpu_at_next_run(1);
  const std::vector<std::string> kernels = copies_of_vector_add(m_out, {"a", "b"}, example("vector_add.cu"));
  const testing::captured_run r = run({"bench", kernels[0], kernels[1], "--ref", example("vector_add_ref.cu"),
                                       "--N=1048576", "--gpus", "0,1", "--json"},
                                      worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("GPU 1 failed while it measured " + kernels[1] +
                       " (GPU 1 stopped answering (recorded)): "
                       "not used again; measured again on another GPU"),
            std::string::npos)
      << r.err;
  const pipeline::spread_results document = pipeline::read_spread_results(json::parse(r.out), "--json");
  ASSERT_EQ(document.results.size(), 2U);
  for (const pipeline::spread_entry& entry : document.results) {
    EXPECT_EQ(entry.gpu, 0) << entry.file;
    ASSERT_TRUE(entry.document.has_value()) << entry.file;
    EXPECT_TRUE(pipeline::read_bench_result(*entry.document, "--json").ok());
  }
  for (const pipeline::recorded_run& child : worker.runs()) EXPECT_EQ(child.device.ordinal, 0);
}

TEST_F(SpreadCommands, SeveralKernelsWithoutGpusRunOneAfterAnotherOnTheOneGpuAndAFailureSetsTheExit) {
  // The second kernel leaves wrong outputs: its bench fails, the first still passes.
  const recorded_worker::responder right = pipeline::two_children(1.0f);
  const recorded_worker::responder wrong = pipeline::two_children(3.0f);
  recorded_worker worker(pipeline::recorded_h200s(2), [&](const harness::bench_job& job) {
    return job.kernel_source.find("wrong") != std::string::npos ? wrong(job) : right(job);
  });
  const std::vector<std::string> kernels =
      copies_of_vector_add(m_out, {"right", "wrong"}, example("vector_add.cu"));
  const testing::captured_run r = run(
      {"bench", kernels[0], kernels[1], "--ref", example("vector_add_ref.cu"), "--N=1048576", "--gpu", "1"},
      worker);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("kernel: " + kernels[0] + " on NVIDIA H200"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel: " + kernels[1] + " on NVIDIA H200"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("kopt: " + kernels[1] + ": failed:"), std::string::npos) << r.err;
  EXPECT_LT(r.out.find(kernels[0]), r.out.find(kernels[1])) << "one after another, in the order given";
  for (const pipeline::recorded_run& child : worker.runs()) EXPECT_EQ(child.device.ordinal, 1);
}

TEST_F(SpreadCommands, GpusIsRefusedBesideGpuAndWhereItNamesNoGpuOfTheHost) {
  recorded_worker worker(pipeline::recorded_h200s(2), pipeline::two_children(1.0f));
  const std::string kernel = example("vector_add.cu");
  const testing::captured_run both =
      run({"bench", kernel, kernel, "--N=1048576", "--gpu", "1", "--gpus", "all"}, worker);
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.err.find("give --gpu or --gpus, not both"), std::string::npos) << both.err;
  const testing::captured_run absent =
      run({"compare", kernel, kernel, "--N=1048576", "--gpus", "0,5"}, worker);
  EXPECT_EQ(absent.status, 2);
  EXPECT_NE(absent.err.find("--gpus"), std::string::npos) << absent.err;
  EXPECT_NE(absent.err.find("5"), std::string::npos) << absent.err;
  const testing::captured_run profiled =
      run({"bench", kernel, kernel, "--N=1048576", "--profile-mode"}, worker);
  EXPECT_EQ(profiled.status, 2);
  EXPECT_NE(profiled.err.find("--profile-mode runs one kernel"), std::string::npos) << profiled.err;
  EXPECT_TRUE(worker.runs().empty()) << "nothing was measured";
}

}  // namespace
}  // namespace kopt::cli
