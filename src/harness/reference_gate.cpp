#include "harness/reference_gate.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "core/file_lock.h"
#include "core/gated_process.h"
#include "harness/prestarted_runner.h"

namespace kopt::harness {
namespace {

// A line back to the parent on the gate's socket (standard input); a standard input that is
// no socket (a person trying the command) hears nothing.
void answer_parent(const std::string& line) { send_line(STDIN_FILENO, line); }

// Has the runner (torch loaded, waiting) make its context while this process holds the GPU's
// lock shared, and answers the parent before letting the lock go.
void make_runner_context(gated_process& runner, const std::filesystem::path& gpu_lock) {
  const std::unique_ptr<file_lock> lock = file_lock::open_existing(gpu_lock);
  if (!lock) return answer_parent("context not made: the GPU's lock file could not be opened");
  if (!lock->try_lock_shared())
    return answer_parent("context not made: another kopt was measuring on the GPU");
  if (!runner.say(runner_context_request)) return answer_parent("context not made: the runner had ended");
  const std::optional<std::string> answer = runner.hear(runner_context_limit);
  if (!answer) {
    // Still at it, or gone: ended now, while the lock is held, so that it cannot make its
    // context later inside a measurement. The reference starts a runner of its own.
    const bool ended_by_itself = !runner.waiting();
    drop_prestarted_runner();
    return answer_parent(ended_by_itself ? "context not made: the runner ended"
                                         : "context not made: the runner did not answer in time and was ended");
  }
  answer_parent(*answer);
}

}  // namespace

bool await_go_line(const std::filesystem::path& gpu_lock) {
  std::string line;  // the parent's, so far
  bool asked = false;
  bool answered = false;
  bool runner_ready = false;  // it said so: torch is loaded and it waits for its command
  bool runner_gone = false;
  while (true) {
    gated_process* runner = held_prestarted_runner();
    if (runner == nullptr) runner_gone = true;
    if (asked && !answered) {
      if (gpu_lock.empty() || runner_gone) {
        answer_parent(gpu_lock.empty() ? "context not made: no GPU lock was given"
                                       : "context not made: no runner is waiting");
        answered = true;
      } else if (runner_ready) {
        make_runner_context(*runner, gpu_lock);
        answered = true;
        continue;  // the runner may have been ended
      }
    }
    // Until it is ready, the runner's socket says when it is (or that it ended).
    const bool listen_to_runner = !runner_gone && !runner_ready;
    pollfd watched[2] = {{STDIN_FILENO, POLLIN, 0}, {listen_to_runner ? runner->socket() : -1, POLLIN, 0}};
    if (::poll(watched, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (watched[1].revents != 0) {
      for (const std::string& said : runner->heard()) runner_ready = runner_ready || said == runner_ready_line;
      if (!runner_ready && !runner->waiting()) {
        runner_gone = true;
      } else if (!runner_ready) {
        ::usleep(1000);  // its end of the socket closes a moment before it is seen to end
      }
    }
    if (watched[0].revents != 0) {
      char c = 0;
      const ssize_t n = ::read(STDIN_FILENO, &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      if (c != '\n') {
        line += c;
      } else if (line == context_request) {
        asked = true;
        line.clear();
      } else {
        return true;
      }
    }
  }
}

}  // namespace kopt::harness
