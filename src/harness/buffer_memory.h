#pragma once
// Where one version's buffers live. On a GPU, device memory through the driver; without one,
// host memory, for a Triton module run by Triton's interpreter on CPU tensors (how CI checks
// the Triton path's validation on a machine without a GPU). device_buffers works through this
// interface only, so the guards, the poison, the uploads and the comparisons are one code for
// both.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "cuda/driver_api.h"

namespace kopt::harness {

class buffer_memory {
 public:
  using address = std::uint64_t;  // a device pointer, or a host pointer as an integer

  virtual ~buffer_memory() = default;

  // `bytes` of memory, or nothing with the reason in `problem` (out of memory, say).
  virtual std::optional<address> allocate(std::size_t bytes, std::string& problem) = 0;
  virtual void release(address at) noexcept = 0;

  // Enqueued fills and copies (no waiting); a failure throws kopt::error naming `what`.
  virtual void fill8(address at, std::uint8_t value, std::size_t count, const std::string& what) = 0;
  virtual void fill16(address at, std::uint16_t value, std::size_t count, const std::string& what) = 0;
  virtual void fill32(address at, std::uint32_t value, std::size_t count, const std::string& what) = 0;
  // Copies that return when done.
  virtual void upload(address to, const void* from, std::size_t bytes, const std::string& what) = 0;
  virtual void download(void* to, address from, std::size_t bytes, const std::string& what) const = 0;
  // The same copy handed over in pieces, in order, each valid only during its `take` call: how
  // outputs reach their evidence files. Device memory comes through a page-locked staging
  // buffer, so a file is written from it once, with no pages of a mapped file zero-filled and
  // faulted in first.
  using piece_taker = std::function<void(std::span<const std::byte>)>;
  virtual void download_in_pieces(address from, std::size_t bytes, const piece_taker& take,
                                  const std::string& what) const = 0;
  // A copy within this memory (enqueued, no waiting).
  virtual void copy(address to, address from, std::size_t bytes, const std::string& what) = 0;
  // Whether [a, a + bytes) and [b, b + bytes) hold the same bytes, decided where they live
  // (on the device, nothing crosses to the host); waits for the answer. Both 256-byte aligned.
  virtual bool same_bytes(address a, address b, std::size_t bytes, const std::string& what) = 0;

  // Waits for kopt's own enqueued work; a failure throws kopt::error "WHAT failed: ...".
  virtual void synchronize(const char* what) = 0;
  // Waits for the code under test's work: the device's error when it failed, else nothing.
  virtual std::optional<std::string> finish_call() = 0;

  // True for device memory: what only a GPU can do (the input generator, timing) needs it.
  virtual bool on_device() const = 0;
  // The driver behind device memory; null for host memory.
  virtual const cuda::driver_api* driver() const = 0;
};

std::unique_ptr<buffer_memory> make_device_memory(const cuda::driver_api& api);
std::unique_ptr<buffer_memory> make_host_memory();

}  // namespace kopt::harness
