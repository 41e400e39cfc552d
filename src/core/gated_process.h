#pragma once
// A program started now whose work begins later, at a gate: it is spawned with a socket as
// its standard input and does its slow start-up (Python importing torch, say) while kopt does
// other work, then blocks reading its go line. open() writes that line and from then on the
// program runs as run_process would run it: output captured, the time limit counted from the
// gate, cancellation, processes left running killed. When a gate never opened ends, the
// program reads end-of-file and should leave at once without doing anything (ending what it
// started itself); after `grace` it is killed with its group.
//
// While it waits, the program is this process's child but none of its work: a neighbour's
// run_process (ends_with_program) that ends processes left running does not take it for one.

#include <optional>
#include <string>
#include <vector>

#include "core/process_spawn.h"
#include "core/subprocess.h"

namespace kopt {

// Writes `line` and a newline on `socket`, all of it; false when the other end is gone. Both
// ends of a gate talk this way (the program answers on its standard input).
bool send_line(int socket, const std::string& line);

class gated_process {
 public:
  // Starts `request.argv` (request.timeout is not used: open() gives the limit). `grace`: how
  // long an unopened program may take to end by itself (0: killed at once).
  explicit gated_process(process_request request, std::chrono::milliseconds grace = std::chrono::milliseconds(0));
  ~gated_process();
  gated_process(const gated_process&) = delete;
  gated_process& operator=(const gated_process&) = delete;

  // Whether it started (else start_error() says why); a started program may have ended since.
  bool started() const { return m_start.started; }
  const std::string& start_error() const { return m_start.start_error; }

  // Whether it is still there, waiting or working (false: it has ended; it is reaped by open()
  // or when this ends).
  bool waiting() const;

  // Its process id (0 when it did not start).
  int pid() const { return m_start.started ? static_cast<int>(m_process.pid) : 0; }

  // Talking at the gate, before open(). The gate is a socket: the program can answer on its
  // standard input. say() writes `line` and a newline without opening the gate (false when it
  // could not be sent); heard() gives the whole lines the program wrote back so far, without
  // waiting; hear() waits up to `wait` for the next one (nothing when none came, or the program
  // ended). socket() is for poll(): readable when the program wrote back or ended.
  bool say(const std::string& line);
  std::vector<std::string> heard();
  std::optional<std::string> hear(std::chrono::milliseconds wait);
  int socket() const { return m_gate; }

  // Writes `line` and a newline to the program, closes its input and waits for it to end,
  // for at most `timeout` (0: no limit) from now. Call at most once. A program that has ended
  // already gives its end as it was.
  process_result open(const std::string& line, std::chrono::milliseconds timeout);

 private:
  process_request m_request;
  std::chrono::milliseconds m_grace;
  process_result m_start;
  spawned_process m_process;
  int m_gate = -1;          // our end of the program's standard input
  std::string m_said_back;  // what it wrote back, after the last whole line heard

  void read_said_back();  // appends what can be read now
  std::optional<std::string> next_line_said();
};

}  // namespace kopt
