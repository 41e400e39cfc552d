#pragma once
// A program kopt talks with while it runs: its standard input is a socket on which kopt sends
// a request line and reads the program's reply back (the program writes it to the same
// socket). Its standard output and error are collected all along, so that a program printing
// a lot cannot stall on a full pipe while kopt waits for a reply. finish() ends the talk (the
// program reads end-of-file) and waits for it as run_process would: time limit, processes it
// left running killed, all its output in the result.
//
// While the talk goes on, the program is this process's child but none of its work: a
// neighbour's run_process (ends_with_program) that ends processes left running does not take
// it for one (two versions' processes of a comparison in turns live side by side).

#include <chrono>
#include <optional>
#include <string>

#include "core/process_spawn.h"
#include "core/subprocess.h"

namespace kopt {

class conversing_process {
 public:
  // Starts `request.argv` (request.timeout is not used: ask() and finish() give the limits).
  explicit conversing_process(process_request request);
  ~conversing_process();
  conversing_process(const conversing_process&) = delete;
  conversing_process& operator=(const conversing_process&) = delete;

  bool started() const { return m_start.started; }
  const std::string& start_error() const { return m_start.start_error; }

  // Sends `line` and a newline, then reads until `reply_lines` lines came back (returned with
  // their newlines), for at most `timeout`. Nothing when the program ended or closed the
  // socket first, or the time ran out (finish() then says how it ended).
  std::optional<std::string> ask(const std::string& line, int reply_lines, std::chrono::milliseconds timeout);

  // Closes the program's input and waits for it to end, for at most `timeout` (0: no limit;
  // past it the program is killed with its group). Call once.
  process_result finish(std::chrono::milliseconds timeout);

 private:
  // Reads what is there on the socket and the output pipes, for at most `timeout`; false when
  // the socket has closed or the time ran out.
  bool pump(std::chrono::steady_clock::time_point deadline);

  process_request m_request;
  process_result m_start;
  spawned_process m_process;
  int m_socket = -1;
  std::string m_replies;  // read from the socket, not yet handed out
  std::string m_out;      // the program's output so far
  std::string m_err;
  bool m_out_open = true;
  bool m_err_open = true;
};

}  // namespace kopt
