#pragma once
// A folder only this user can enter (mkdtemp, mode 0700), memory-backed where the machine has a
// writable /dev/shm (data between processes then goes through the page cache only), else under
// the temporary folder ($TMPDIR); removed with everything in it when the object dies, whatever happened.

#include <filesystem>
#include <string>

namespace kopt {

class private_folder {
 public:
  // `prefix` names it ("kopt-evidence" gives /dev/shm/kopt-evidence-XXXXXX). `purpose` says what
  // it is for in the error when it cannot be made. Throws kopt::error.
  private_folder(const std::string& prefix, const std::string& purpose);
  ~private_folder();
  private_folder(const private_folder&) = delete;
  private_folder& operator=(const private_folder&) = delete;

  const std::filesystem::path& path() const { return m_path; }

  // Removes it with everything in it now (what the destructor does), so that a caller can
  // account for the time; nothing is left for the destructor.
  void remove_now();

 private:
  std::filesystem::path m_path;
};

}  // namespace kopt
