#include "harness/l2_flush.h"

#include "harness/driver_check.h"
#include "harness/l2_flush_ptx.h"

namespace kopt::harness {

l2_flusher::l2_flusher(const cuda::driver_api& api, std::size_t l2_bytes) : m_api(api) {
  const std::size_t bytes = 2 * l2_bytes;
  m_vectors = bytes / 16;
  check_driver_call(api, api.mem_alloc(&m_buffer, bytes), "L2 flush", "cuMemAlloc");
  check_driver_call(api, api.memset_d8(m_buffer, 0, bytes), "L2 flush", "cuMemsetD8");
  check_driver_call(api, api.mem_alloc(&m_sink, sizeof(int)), "L2 flush", "cuMemAlloc");
  check_driver_call(api, api.module_load_data(&m_module, l2_flush_ptx), "L2 flush",
                    "loading the flush kernel (cuModuleLoadData)");
  check_driver_call(api, api.module_get_function(&m_kernel, m_module, kernel_name), "L2 flush",
                    "cuModuleGetFunction");
}

l2_flusher::~l2_flusher() {
  if (m_buffer != 0) m_api.mem_free(m_buffer);
  if (m_sink != 0) m_api.mem_free(m_sink);
}

void l2_flusher::flush() {
  unsigned long long count = m_vectors;
  void* arguments[] = {&m_buffer, &count, &m_sink};
  // Enough blocks to fill any current GPU several times over; the loop strides the rest.
  check_driver_call(m_api,
                    m_api.launch_kernel(m_kernel, 1024, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr),
                    "L2 flush", "cuLaunchKernel");
}

}  // namespace kopt::harness
