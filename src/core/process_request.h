#pragma once
// What kopt asks of a program it starts (core/subprocess.h) and how the program ended: the
// vocabulary the halves of starting one (core/process_spawn.h) share with run_process.

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kopt {

struct process_request {
  std::vector<std::string> argv;                     // argv[0] is a path or a name on PATH
  std::optional<std::filesystem::path> working_dir;  // default: kopt's own
  std::map<std::string, std::string> extra_env;      // added to (or replacing in) kopt's env
  std::vector<std::string> unset_env;                // removed from the child's env
  std::chrono::milliseconds timeout{0};              // 0: no limit
  // The program's work ends with it (a measuring child): output is read until it exits, not
  // until every process holding its pipes does, and any process it left running (detached
  // with setsid, say) is killed before run_process returns, and named in `left_running`.
  bool ends_with_program = false;
  // Descriptors the program inherits: (descriptor here, its number in the program).
  std::vector<std::pair<int, int>> pass_fds;
};

struct process_result {
  bool started = false;      // false: the program could not be started (see start_error)
  std::string start_error;
  int exit_code = -1;        // valid when the process exited normally
  int term_signal = 0;       // nonzero when a signal ended it
  bool timed_out = false;    // killed by kopt at the time limit
  bool cancelled = false;    // killed because the thread's work was cancelled (core/cancellation.h)
  std::string stdout_text;
  std::string stderr_text;
  std::chrono::milliseconds elapsed{0};
  std::vector<std::string> left_running;  // with ends_with_program: "PID COMMAND" of each killed

  bool succeeded() const { return started && !timed_out && !cancelled && term_signal == 0 && exit_code == 0; }
  // "exit code 3", "killed by signal 11 (Segmentation fault)", "timed out after 10 s"...
  std::string describe_end() const;
};

}  // namespace kopt
