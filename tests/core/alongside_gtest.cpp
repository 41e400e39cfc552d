// run_alongside: both pieces run at once (each waits for the other to have started), both end
// before it returns, a failure of either reaches the caller, and cancelling the caller's work
// cancels the helper's programs too.
#include "core/alongside.h"

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "core/cancellation.h"
#include "core/error.h"
#include "core/subprocess.h"

namespace kopt {
namespace {

TEST(RunAlongside, BothRunAtOnceAndBothEndBeforeItReturns) {
  std::promise<void> helper_started;
  std::promise<void> here_started;
  bool helper_done = false;
  run_alongside(
      [&] {
        helper_started.set_value();
        ASSERT_EQ(here_started.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
        helper_done = true;
      },
      [&] {
        here_started.set_value();
        ASSERT_EQ(helper_started.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
      });
  EXPECT_TRUE(helper_done);
}

TEST(RunAlongside, EitherFailureReachesTheCallerAfterBothEnded) {
  bool here_finished = false;
  EXPECT_THROW(run_alongside([] { throw error("the export failed"); }, [&] { here_finished = true; }), error);
  EXPECT_TRUE(here_finished);
  bool helper_finished = false;
  EXPECT_THROW(run_alongside([&] { helper_finished = true; }, [] { throw std::runtime_error("compare failed"); }),
               std::runtime_error);
  EXPECT_TRUE(helper_finished);
}

TEST(RunAlongside, CancellingTheCallersWorkKillsTheHelpersPrograms) {
  std::atomic<bool> cancel{false};
  set_thread_cancellation(&cancel);
  process_result helper_run;
  const auto started = std::chrono::steady_clock::now();
  run_alongside([&] { helper_run = run_process(process_request{.argv = {"sleep", "30"}}); },
                [&] {
                  std::this_thread::sleep_for(std::chrono::milliseconds(200));
                  cancel = true;
                });
  set_thread_cancellation(nullptr);
  EXPECT_TRUE(helper_run.cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

}  // namespace
}  // namespace kopt
