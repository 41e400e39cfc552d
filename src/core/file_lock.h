#pragma once
// An exclusive advisory lock on a file (flock), held for the object's lifetime. kopt takes
// one per GPU around timing so that two kopt processes never measure on the same GPU at once.

#include <filesystem>

namespace kopt {

class file_lock {
 public:
  // Opens (creating) `path`. Does not lock yet.
  explicit file_lock(const std::filesystem::path& path);
  ~file_lock();
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;

  bool try_lock();  // false when another holder has it
  void lock();      // waits for it

 private:
  int m_fd = -1;
  bool m_locked = false;
};

}  // namespace kopt
