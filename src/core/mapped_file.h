#pragma once
// Regular files mapped into memory, for large binary files written or read once (the outputs
// the measuring processes leave for the verdict: on tmpfs the mapping is the file's own pages,
// so a device download lands in the file directly and the comparison reads it in place,
// nothing copied or zero-filled on the way).

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

// A new file of `size` bytes (replacing any file of that name), its space reserved up front so
// that a full disk is an error here rather than a fault when a page is first written, and
// mapped for writing; the data reaches the file as it is written. Throws kopt::error naming
// the file.
class mapped_output_file {
 public:
  mapped_output_file(const std::filesystem::path& path, std::size_t size);
  ~mapped_output_file();
  mapped_output_file(const mapped_output_file&) = delete;
  mapped_output_file& operator=(const mapped_output_file&) = delete;

  std::span<std::byte> bytes() { return {static_cast<std::byte*>(m_data), m_size}; }

 private:
  void* m_data = nullptr;
  std::size_t m_size = 0;  // [bytes]
};

}  // namespace kopt
