// A round's candidates over 1, 2 and 8 GPUs (pipeline/gpu_dispatch.h), with work that records
// where and when it ran: every candidate finishes exactly once, on the calling thread; no GPU
// runs two at once; a free GPU takes the next candidate; a GPU that stops answering is dropped
// and its candidate measured on another; an error that is not the GPU's stops the round.
#include "pipeline/gpu_dispatch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::pipeline {
namespace {

using namespace std::chrono_literals;

// Work that takes a little while and notes what ran where.
class recorded_round {
 public:
  recorded_round(std::vector<int> gpus, std::size_t candidates) {
    m_round.gpus = std::move(gpus);
    for (std::size_t i = 0; i < candidates; ++i) m_round.pending.push_back(i);
    m_caller = std::this_thread::get_id();
    m_round.start = [this](std::size_t index, int gpu) -> gpu_work {
      EXPECT_EQ(std::this_thread::get_id(), m_caller) << "hand-outs happen on the calling thread";
      return [this, index, gpu] { work(index, gpu); };
    };
    m_round.finish = [this](std::size_t index, int gpu) {
      EXPECT_EQ(std::this_thread::get_id(), m_caller) << "commits happen on the calling thread";
      finished.emplace_back(index, gpu);
    };
    m_round.gpu_failed = [this](int gpu) { return gone.count(gpu) > 0; };
    m_round.on_dropped = [this](const dropped_gpu& d) { dropped.push_back(d); };
  }

  void run() { dispatch_on_gpus(m_round); }

  std::vector<std::pair<std::size_t, int>> finished;  // (candidate, GPU) in the order committed
  std::vector<dropped_gpu> dropped;
  std::set<int> gone;                                            // GPUs that stop answering
  std::map<std::pair<std::size_t, int>, std::string> fail_with;  // (candidate, GPU) -> "error" | "other"
  std::atomic<int> most_at_once = 0;
  std::atomic<int> most_on_one_gpu = 0;
  std::chrono::milliseconds each = 20ms;

 private:
  void work(std::size_t index, int gpu) {
    const auto failure = fail_with.find({index, gpu});
    // A kill comes at once, before the work beside it returns.
    if (failure != fail_with.end() && failure->second == "other") throw std::runtime_error("killed");
    {
      const std::lock_guard<std::mutex> hold(m_mutex);
      const int now = ++m_running;
      most_at_once = std::max(most_at_once.load(), now);
      most_on_one_gpu = std::max(most_on_one_gpu.load(), ++m_on_gpu[gpu]);
    }
    std::this_thread::sleep_for(each);
    {
      const std::lock_guard<std::mutex> hold(m_mutex);
      --m_running;
      --m_on_gpu[gpu];
    }
    if (failure != fail_with.end()) throw error("the GPU stopped answering");
  }

  gpu_dispatch m_round;
  std::thread::id m_caller;
  std::mutex m_mutex;
  int m_running = 0;
  std::map<int, int> m_on_gpu;
};

std::set<std::size_t> candidates_of(const std::vector<std::pair<std::size_t, int>>& finished) {
  std::set<std::size_t> seen;
  for (const auto& [index, gpu] : finished) seen.insert(index);
  return seen;
}

TEST(GpuDispatch, OneGpuTakesTheCandidatesOneAfterAnotherInOrder) {
  recorded_round round({0}, 5);
  round.run();
  ASSERT_EQ(round.finished.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(round.finished[i], std::make_pair(i, 0));
  EXPECT_EQ(round.most_at_once, 1);
}

TEST(GpuDispatch, TwoGpusMeasureTwoCandidatesAtOnceAndEachGpuOneAtATime) {
  recorded_round round({0, 1}, 8);
  round.each = 50ms;
  round.run();
  ASSERT_EQ(round.finished.size(), 8u);
  EXPECT_EQ(candidates_of(round.finished).size(), 8u) << "each candidate finishes once";
  EXPECT_EQ(round.most_at_once, 2);
  EXPECT_EQ(round.most_on_one_gpu, 1);
  const auto on_gpu_1 = std::count_if(round.finished.begin(), round.finished.end(),
                                      [](const auto& f) { return f.second == 1; });
  EXPECT_GE(on_gpu_1, 2) << "the second GPU takes candidates as it frees";
  EXPECT_GE(8 - on_gpu_1, 2);
}

TEST(GpuDispatch, EightGpusTakeARoundOfThreeAllAtOnce) {
  recorded_round round({0, 1, 2, 3, 4, 5, 6, 7}, 3);
  round.each = 200ms;
  round.run();
  EXPECT_EQ(candidates_of(round.finished).size(), 3u);
  EXPECT_EQ(round.most_at_once, 3);
  std::set<int> used;
  for (const auto& [index, gpu] : round.finished) used.insert(gpu);
  EXPECT_EQ(used, (std::set<int>{0, 1, 2})) << "the first free GPUs, in the order given";
}

TEST(GpuDispatch, AGpuThatStopsAnsweringIsDroppedAndItsCandidateMeasuredOnAnother) {
  recorded_round round({0, 1}, 6);
  round.fail_with[{1, 1}] = "error";
  round.gone = {1};
  round.run();
  EXPECT_EQ(round.finished.size(), 6u);
  EXPECT_EQ(candidates_of(round.finished).size(), 6u);
  ASSERT_EQ(round.dropped.size(), 1u);
  EXPECT_EQ(round.dropped[0].gpu, 1);
  EXPECT_EQ(round.dropped[0].item, 1u);
  EXPECT_EQ(round.dropped[0].reason, "the GPU stopped answering");
  for (const auto& [index, gpu] : round.finished) EXPECT_EQ(gpu, 0) << "candidate " << index;
}

TEST(GpuDispatch, AnErrorOnAGpuThatStillAnswersIsTheRunsAndStopsTheRound) {
  recorded_round round({0, 1}, 6);
  round.fail_with[{1, 1}] = "error";
  EXPECT_THROW(round.run(), error);
  EXPECT_TRUE(round.dropped.empty());
  EXPECT_LT(round.finished.size(), 6u) << "no candidate starts after the error";
  EXPECT_EQ(candidates_of(round.finished).count(1), 0u);
}

TEST(GpuDispatch, WhenEveryGpuIsGoneTheErrorIsThrownAndNothingRunsBehindTheCaller) {
  recorded_round round({0, 1}, 4);
  round.fail_with[{0, 0}] = "error";
  round.fail_with[{1, 1}] = "error";
  round.gone = {0, 1};
  EXPECT_THROW(round.run(), error);
  EXPECT_EQ(round.dropped.size(), 2u);
  EXPECT_TRUE(round.finished.empty());
}

TEST(GpuDispatch, AKilledEvaluationEndsTheRoundAfterTheOthersReturn) {
  recorded_round round({0, 1, 2}, 6);
  round.each = 50ms;
  round.fail_with[{0, 0}] = "other";
  EXPECT_THROW(round.run(), std::runtime_error);
  EXPECT_EQ(candidates_of(round.finished), (std::set<std::size_t>{1, 2}))
      << "the two running beside it are committed; nothing starts after it";
}

}  // namespace
}  // namespace kopt::pipeline
