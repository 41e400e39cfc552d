#pragma once
// The cold-cache protocol's flush: one read of a device buffer of twice the L2 size.

#include <cstddef>
#include <string>

#include <cuda.h>

#include "cuda/driver_api.h"

namespace kopt::harness {

class l2_flusher {
 public:
  // Allocates the buffer (2 × `l2_bytes`, zeroed) and loads the flush kernel into the current
  // context. Throws kopt::error on a driver failure.
  l2_flusher(const cuda::driver_api& api, std::size_t l2_bytes);
  ~l2_flusher();
  l2_flusher(const l2_flusher&) = delete;
  l2_flusher& operator=(const l2_flusher&) = delete;

  // Enqueues the flush on the default stream (no synchronisation).
  void flush();

  // The kernel's name, so timing can tell its activity records apart from the user's.
  static constexpr const char* kernel_name = "kopt_l2_flush";

 private:
  const cuda::driver_api& m_api;
  CUdeviceptr m_buffer = 0;
  CUdeviceptr m_sink = 0;
  std::size_t m_vectors = 0;  // 16-byte elements in the buffer
  CUmodule m_module = nullptr;
  CUfunction m_kernel = nullptr;
};

}  // namespace kopt::harness
