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

#include "core/json_io.h"

namespace kopt::harness {

class block_channel {
 public:
  // `fd`: the socket; `key`: the result key (none: replies go unsealed, and a parent that gave
  // a key refuses them).
  block_channel(int fd, std::optional<std::string> key) : m_fd(fd), m_key(std::move(key)) {}

  // The next block's call count; nothing at the end of the input. Throws kopt::error for a
  // request that is not a positive count.
  std::optional<int> next_request();

  // Sends `block` with the number of the request it answers added.
  void reply(json block);

 private:
  int m_fd;
  std::optional<std::string> m_key;
  int m_requests = 0;
};

// The parent's side of one reply: the document when its seal holds (or `key` is empty) and it
// answers request `number`; nothing otherwise.
std::optional<json> read_block_reply(const std::string& reply, const std::string& key, int number);

}  // namespace kopt::harness
