#pragma once
// One set of a version's buffers: each allocation with guard regions full of canary bytes
// around the version's bytes; inputs uploaded, outputs poisoned, everything downloadable for
// comparison. The kernel and the reference each get their own set, in device memory (or in
// host memory for a Triton module under Triton's interpreter: buffer_memory.h).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <cuda.h>

#include "harness/buffer_layout.h"
#include "harness/buffer_memory.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

class device_buffers {
 public:
  // Allocates every buffer of the plan in `memory`; throws kopt::error when it runs out.
  device_buffers(buffer_memory& memory, const std::vector<kernel::buffer_spec>& buffers);
  ~device_buffers();
  device_buffers(const device_buffers&) = delete;
  device_buffers& operator=(const device_buffers&) = delete;

  // The pointer the version receives for buffer `i` (in plan order).
  CUdeviceptr data(std::size_t i) const;
  buffer_memory& memory() const { return m_memory; }

  // Resets every guard to the canary and every `out` buffer to its poison; uploads
  // `contents[i]` into each `in`/`inout` buffer (contents of `out` buffers are ignored).
  void prepare(const std::vector<std::vector<std::byte>>& contents);

  // Resets every allocation, guards and contents, to the canary (no synchronisation): the
  // start of a run whose inputs are then made on the device.
  void reset_to_canary();

  // Enqueues the fill of `out` buffer `i` with its poison (no synchronisation).
  void poison(std::size_t i);

  // Overwrites buffer `i`'s bytes (guards untouched) and waits for the copy.
  void upload(std::size_t i, const std::vector<std::byte>& bytes);

  // The kernel's bytes of buffer `i`.
  std::vector<std::byte> download(std::size_t i) const;

  // "wrote 4 bytes past the end of C (first at +0 bytes)" for each damaged guard.
  std::vector<std::string> guard_violations() const;

 private:
  struct allocation {
    CUdeviceptr base = 0;
    buffer_layout layout;
  };
  buffer_memory& m_memory;
  const std::vector<kernel::buffer_spec>& m_buffers;
  std::vector<allocation> m_allocations;
};

}  // namespace kopt::harness
