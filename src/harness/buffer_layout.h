#pragma once
// Where each buffer sits inside its device allocation: a guard region before and after the
// kernel's bytes, the kernel's pointer aligned to 256 bytes (what cudaMalloc gives, and what
// TMA descriptors and vector loads expect). After a run the guards must still hold the
// canary; the tail padding between the last element and the after-guard counts as guard.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace kopt::harness {

inline constexpr std::size_t buffer_alignment = 256;   // [bytes]
inline constexpr std::size_t guard_bytes = 64 * 1024;  // [bytes] each side

struct buffer_layout {
  std::size_t allocation_bytes = 0;  // what to allocate
  std::size_t data_offset = 0;       // the kernel's pointer = allocation + data_offset
  std::size_t data_bytes = 0;        // elements * element size
  std::size_t tail_offset = 0;       // first guard byte after the data
};

buffer_layout layout_for(std::size_t data_bytes);

struct guard_violation {
  bool before = false;               // in front of the buffer (negative offsets)
  std::size_t first_offset = 0;      // [bytes] from the buffer's start (before) or end (after)
  std::size_t corrupted_bytes = 0;
};

// `guard` holds the bytes in front of the data ([0, data_offset) of the allocation);
// `tail` the bytes after it ([tail_offset, allocation_bytes): padding and guard).
std::optional<guard_violation> check_guard_before(std::span<const std::uint8_t> guard);
std::optional<guard_violation> check_guard_after(std::span<const std::uint8_t> tail);

// "wrote 12 bytes past the end of C (first at +0 bytes)"
std::string describe(const guard_violation& violation, const std::string& buffer_name);

}  // namespace kopt::harness
