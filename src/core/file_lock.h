#pragma once
// An advisory lock on a file (flock), held for the object's lifetime. kopt takes one per GPU,
// exclusive, around timing so that two kopt processes never measure on the same GPU at once;
// processes making a CUDA context ahead of their turn take it shared, so that they can make
// theirs side by side but never while anyone measures there.

#include <filesystem>
#include <memory>

namespace kopt {

class file_lock {
 public:
  // Opens (creating) `path`. Does not lock yet.
  explicit file_lock(const std::filesystem::path& path);
  // Opens `path` for reading only, creating nothing (a process whose writes are restricted can
  // still lock it); null when it cannot be opened.
  static std::unique_ptr<file_lock> open_existing(const std::filesystem::path& path);
  ~file_lock();
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;

  bool try_lock();         // exclusive; false when another holder has it
  bool try_lock_shared();  // shared with other shared holders; false while an exclusive one has it
  void lock();      // waits for it

 private:
  explicit file_lock(int fd) : m_fd(fd) {}
  int m_fd = -1;
  bool m_locked = false;
};

}  // namespace kopt
