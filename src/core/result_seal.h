#pragma once
// A measuring child's result, sealed so that only kopt's own harness code could have written
// it (EXPLOITS.md #20). The parent makes a random key for each child and hands it over an
// inherited pipe; the child takes it before any code under test is loaded (and closes the
// pipe), and appends an HMAC-SHA256 of the result's text to the file it writes. A process the
// code under test left behind that rewrites the result file has no key: the parent finds no
// valid seal and fails the run. (Code under test that reads the key out of its own process's
// memory is the fully hostile case docs/integrity.md names.)

#include <optional>
#include <string>
#include <string_view>

namespace kopt {

// The environment variable that names the key's file descriptor in the child.
inline constexpr const char* result_key_fd_variable = "KOPT_RESULT_KEY_FD";

// The parent's side: a fresh random key, and the read end of a pipe that holds it.
class result_key {
 public:
  // Throws kopt::error when no pipe or no random bytes can be had.
  result_key();
  ~result_key();
  result_key(const result_key&) = delete;
  result_key& operator=(const result_key&) = delete;

  const std::string& key() const { return m_key; }
  int read_fd() const { return m_read_fd; }  // pass it to the child

 private:
  std::string m_key;
  int m_read_fd = -1;
};

// "TEXT\nkopt-seal HMAC\n": what the child writes.
std::string sealed(std::string_view key, std::string_view text);

// TEXT when `file_content` is TEXT sealed with `key`; nothing otherwise (no seal, another key,
// a changed text).
std::optional<std::string> unsealed(std::string_view key, std::string_view file_content);

// The child's side: reads the key from the descriptor the parent named (if it did), closes it
// and removes the variable. Returns the key, or nothing when the parent gave none.
std::optional<std::string> take_result_key();

}  // namespace kopt
