// Work that can wait for a command's answer: run at once by a kopt that answers when it ends,
// kept in order by one that defers (the warm worker) until its answer is out, and a task that
// throws does not keep the others from running.
#include "core/after_the_answer.h"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace kopt {
namespace {

TEST(AfterTheAnswer, RunsAtOnceUntilAProcessDefersThenInOrderAfterTheAnswer) {
  std::vector<int> ran;
  after_the_answer([&] { ran.push_back(1); });
  EXPECT_EQ(ran, std::vector<int>{1}) << "a one-shot kopt frees what it kept before it ends";

  defer_until_answered();
  after_the_answer([&] { ran.push_back(2); });
  after_the_answer([] { throw std::runtime_error("a folder that could not be removed"); });
  after_the_answer([&] { ran.push_back(3); });
  EXPECT_EQ(ran, std::vector<int>{1}) << "kept until the answer is out";
  run_after_the_answer();
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3}));
  run_after_the_answer();
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3})) << "each runs once";
}

}  // namespace
}  // namespace kopt
