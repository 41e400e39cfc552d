#pragma once
// The measuring child's side of a comparison in turns (pipeline/alternating_comparison.h): the
// parent keeps the version's process open and asks it for one block of timed calls at a time,
// as a line "CALLS" on its standard input (a socket, so replies go back the same way). Each
// reply is one line of JSON (the block's number and its timing document) sealed with the key
// the parent gave this process (core/result_seal.h), so that only kopt's harness code could
// have written it, and numbered, so that an earlier block cannot be sent again in its place.
// The end of the input ends the session.

#include <optional>
#include <string>

#include "harness/child_report.h"

namespace kopt::harness {

// One reply: the block's number, and its timing or why the version failed in it.
struct block_reply {
  int block = 0;                     // the request it answers, from 1
  run_status status = run_status::ok;
  std::string reason;
  std::optional<measure::timing_document> timing;
  int placement = 0;                 // which of the version's buffer sets it ran on
  std::optional<std::string> warning;  // another process used the GPU during the block
};
BOOST_DESCRIBE_STRUCT(block_reply, (), (block, status, reason, timing, placement, warning))

class block_channel {
 public:
  // `fd`: the socket; `key`: the result key (none: replies go unsealed, and a parent that gave
  // a key refuses them).
  block_channel(int fd, std::optional<std::string> key) : m_fd(fd), m_key(std::move(key)) {}

  // The next block's call count; nothing at the end of the input. Throws kopt::error for a
  // request that is not a positive count.
  std::optional<int> next_request();

  // Sends `block` numbered as the request it answers.
  void reply(block_reply block);

 private:
  int m_fd;
  std::optional<std::string> m_key;
  int m_requests = 0;
};

// The parent's side of one reply: the reply when its seal holds (or `key` is empty), its reader
// takes it and it answers request `number`; nothing otherwise.
std::optional<block_reply> read_block_reply(const std::string& reply, const std::string& key, int number);

}  // namespace kopt::harness
