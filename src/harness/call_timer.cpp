#include "harness/call_timer.h"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::harness {

call_timer::call_timer(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher)
    : m_api(api), m_recorder(recorder), m_flusher(flusher) {}

void call_timer::synchronize(const char* when) {
  if (const CUresult rc = m_api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw error(fmt::format("the device failed {}: {}", when, m_api.describe(rc)));
  }
}

call_sample call_timer::time_call(const std::function<void()>& call) {
  if (m_flusher != nullptr) m_flusher->flush();
  synchronize("before the call");
  m_recorder.collect();  // drop the flush's and any earlier records

  const auto host_start = std::chrono::steady_clock::now();
  call();
  synchronize("in solve()");
  const auto host_end = std::chrono::steady_clock::now();

  call_sample sample;
  sample.host_ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(host_end - host_start).count());
  std::uint64_t first_start = UINT64_MAX;
  std::uint64_t last_end = 0;
  std::set<std::uint32_t> streams;
  for (const cuda::gpu_activity& a : m_recorder.collect()) {
    first_start = std::min(first_start, a.start_ns);
    last_end = std::max(last_end, a.end_ns);
    streams.insert(a.stream);
    if (a.what == cuda::gpu_activity::kind::kernel) {
      sample.kernel_ns += static_cast<double>(a.duration_ns());
      ++sample.kernels;
    } else {
      sample.memory_ops_ns += static_cast<double>(a.duration_ns());
      ++sample.memory_ops;
    }
  }
  sample.span_ns = last_end > first_start ? static_cast<double>(last_end - first_start) : 0;
  sample.streams = static_cast<int>(streams.size());
  return sample;
}

}  // namespace kopt::harness
