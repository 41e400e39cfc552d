#include "core/after_the_answer.h"

#include <mutex>
#include <utility>
#include <vector>

namespace kopt {
namespace {

struct kept_work {
  std::mutex mutex;
  bool deferring = false;
  std::vector<std::function<void()>> tasks;
};

kept_work& kept() {
  static kept_work work;
  return work;
}

}  // namespace

void after_the_answer(std::function<void()> task) {
  kept_work& work = kept();
  {
    const std::lock_guard lock(work.mutex);
    if (work.deferring) {
      work.tasks.push_back(std::move(task));
      return;
    }
  }
  task();
}

void defer_until_answered() {
  const std::lock_guard lock(kept().mutex);
  kept().deferring = true;
}

void run_after_the_answer() {
  std::vector<std::function<void()>> tasks;
  {
    const std::lock_guard lock(kept().mutex);
    tasks.swap(kept().tasks);
  }
  for (const auto& task : tasks) {
    try {
      task();
    } catch (...) {
      // Cleaning up after an answer already given: nothing left to tell anyone.
    }
  }
}

}  // namespace kopt
