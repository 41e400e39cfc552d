#include "core/alongside.h"

#include <atomic>
#include <exception>
#include <thread>

#include "core/cancellation.h"

namespace kopt {

void run_alongside(const std::function<void()>& on_helper_thread, const std::function<void()>& here) {
  std::exception_ptr helper_failure;
  const std::atomic<bool>* cancelled = thread_cancellation();
  std::thread helper([&] {
    set_thread_cancellation(cancelled);  // cancelling the caller's work cancels this part too
    try {
      on_helper_thread();
    } catch (...) {
      helper_failure = std::current_exception();
    }
  });
  std::exception_ptr here_failure;
  try {
    here();
  } catch (...) {
    here_failure = std::current_exception();
  }
  helper.join();
  if (helper_failure) std::rethrow_exception(helper_failure);
  if (here_failure) std::rethrow_exception(here_failure);
}

}  // namespace kopt
