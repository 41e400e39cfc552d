#pragma once
// Regular files mapped into memory for reading, for large binary files read once (the outputs
// the measuring processes leave for the verdict: on tmpfs the mapping is the file's own pages,
// so the comparison reads them in place, nothing copied).

#include <cstddef>
#include <filesystem>
#include <span>

namespace kopt {

class mapped_file {
 public:
  // Throws kopt::error naming the file when it cannot be opened or mapped, or is not a
  // regular file. An empty file maps to an empty span.
  explicit mapped_file(const std::filesystem::path& path);
  ~mapped_file();
  mapped_file(mapped_file&& other) noexcept;
  mapped_file& operator=(mapped_file&& other) noexcept;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;

  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(m_data), m_size}; }

 private:
  void* m_data = nullptr;
  std::size_t m_size = 0;  // [bytes]
};

}  // namespace kopt
