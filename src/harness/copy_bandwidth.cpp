#include "harness/copy_bandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstddef>

namespace kopt::harness {
namespace {

// 256 MiB each way: over four times the L2 an H200 reports (60 MiB), so the copies run from and
// to DRAM; a batch of 8 moves 4 GiB, long enough that the host's clock and the synchronisation
// around it are noise.
constexpr std::size_t copy_bytes = std::size_t{256} << 20;
constexpr int copies_per_batch = 8;
constexpr int batches = 3;

class device_allocation {
 public:
  device_allocation(const cuda::driver_api& api, std::size_t bytes) : m_api(api) {
    if (m_api.mem_alloc(&m_pointer, bytes) != CUDA_SUCCESS) m_pointer = 0;
  }
  ~device_allocation() {
    if (m_pointer != 0) m_api.mem_free(m_pointer);
  }
  device_allocation(const device_allocation&) = delete;
  device_allocation& operator=(const device_allocation&) = delete;
  CUdeviceptr get() const { return m_pointer; }

 private:
  const cuda::driver_api& m_api;
  CUdeviceptr m_pointer = 0;
};

}  // namespace

std::optional<double> measured_copy_bandwidth(const gpu_context& gpu) {
  const cuda::driver_api& api = *gpu.api;
  const device_allocation from(api, copy_bytes);
  const device_allocation to(api, copy_bytes);
  if (from.get() == 0 || to.get() == 0) return std::nullopt;
  // Written first, so that no copy reads pages the driver has not backed yet; one copy to warm up.
  if (api.memset_d8(from.get(), 1, copy_bytes) != CUDA_SUCCESS ||
      api.memcpy_dtod(to.get(), from.get(), copy_bytes) != CUDA_SUCCESS || api.ctx_synchronize() != CUDA_SUCCESS) {
    return std::nullopt;
  }
  double best_s = 0;
  for (int batch = 0; batch < batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < copies_per_batch; ++i) {
      if (api.memcpy_dtod(to.get(), from.get(), copy_bytes) != CUDA_SUCCESS) return std::nullopt;
    }
    if (api.ctx_synchronize() != CUDA_SUCCESS) return std::nullopt;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best_s = batch == 0 ? s : std::min(best_s, s);
  }
  if (best_s <= 0) return std::nullopt;
  return 2.0 * static_cast<double>(copy_bytes) * copies_per_batch / best_s;
}

}  // namespace kopt::harness
