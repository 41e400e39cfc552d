#include "harness/call_timer.h"

#include <chrono>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::harness {

call_timer::call_timer(const cuda::driver_api& api, cuda::activity_recorder& recorder,
                       cuda::launch_attribution* attribution, l2_flusher* flusher)
    : m_api(api), m_recorder(recorder), m_attribution(attribution), m_flusher(flusher), m_hold(api) {}

void call_timer::synchronize(const char* when) {
  if (const CUresult rc = m_api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw error(fmt::format("the device failed {}: {}", when, m_api.describe(rc)));
  }
}

std::optional<cuda::api_origin> call_timer::origin(std::uint32_t correlation) const {
  if (m_attribution == nullptr) return std::nullopt;
  return m_attribution->origin(correlation);
}

namespace {

double nanoseconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count());
}

}  // namespace

call_sample call_timer::time_call(const std::function<void()>& call, std::uint64_t call_index) {
  const origin_lookup lookup = [this](std::uint32_t correlation) { return origin(correlation); };
  const auto flush_start = std::chrono::steady_clock::now();
  if (m_flusher != nullptr) m_flusher->flush();
  synchronize("before the call");
  const auto read_start = std::chrono::steady_clock::now();
  // Everything since the last sample: kopt's own work (flush, inputs, poison, checks), and
  // anything another thread launched in between.
  const call_work before = attribute(m_recorder.collect(), 0, lookup);
  if (before.harness_stream != no_stream) m_default_stream = before.harness_stream;
  const auto read_end = std::chrono::steady_clock::now();

  const std::chrono::nanoseconds hold = m_next_hold;
  m_hold.hold(hold);
  CUcontext ours = nullptr;
  m_api.ctx_get_current(&ours);
  if (m_attribution != nullptr) m_attribution->open_window(call_index);
  const auto host_start = std::chrono::steady_clock::now();
  call();
  const auto host_return = std::chrono::steady_clock::now();
  if (m_attribution != nullptr) m_attribution->close_window();
  // cuCtxSynchronize waits for the current context only: one that solve() left current would
  // be waited for instead of kopt's (about 20 ns each way).
  CUcontext current = nullptr;
  m_api.ctx_get_current(&current);
  const bool left_other_context = current != ours;
  if (left_other_context) m_api.ctx_set_current(ours);
  synchronize("in solve()");
  const auto host_end = std::chrono::steady_clock::now();

  call_sample sample;
  std::vector<cuda::gpu_activity> records = m_recorder.collect();
  if (m_attribution == nullptr) {
    // Without the callbacks nothing says the hold was kopt's launch; a trusted reference
    // cannot have named a kernel after it to hide work, so the name is enough.
    std::erase_if(records, [](const cuda::gpu_activity& a) { return a.name == launch_hold::kernel_name; });
  }
  static_cast<call_work&>(sample) = attribute(records, call_index, lookup);
  const auto attributed = std::chrono::steady_clock::now();
  if (sample.foreign.empty()) sample.foreign = before.foreign;
  if (sample.late.empty()) sample.late = before.late;
  sample.left_other_context = left_other_context;
  for (const std::uint32_t stream : sample.stream_ids) {
    if (m_default_stream != no_stream && stream != m_default_stream) ++sample.side_streams;
  }
  sample.host_ns = nanoseconds_between(host_start, host_end);
  sample.issue_host_ns = nanoseconds_between(host_start, host_return);
  sample.hold_ns = static_cast<double>(hold.count());
  m_next_hold = launch_hold::next_hold(std::chrono::duration_cast<std::chrono::nanoseconds>(host_return - host_start));
  sample.persisting_l2_bytes = clear_persisting_l2();
  sample.flush_host_ns = nanoseconds_between(flush_start, read_start);
  sample.read_records_host_ns = nanoseconds_between(read_start, read_end) + nanoseconds_between(host_end, attributed);
  sample.l2_reset_host_ns = nanoseconds_between(attributed, std::chrono::steady_clock::now());
  return sample;
}

std::uint64_t call_timer::clear_persisting_l2() {
  // A persisting-L2 carve-out and the lines pinned in it would survive the next flush. Without
  // a carve-out no line can be persisting, so the reset is needed only after one was set.
  std::size_t persisting = 0;
  if (m_api.ctx_get_limit(&persisting, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS && persisting > 0) {
    m_api.ctx_reset_persisting_l2_cache();
    m_api.ctx_set_limit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0);
    return persisting;
  }
  return 0;
}

call_work call_timer::work_after_settling(std::chrono::milliseconds settle) {
  std::this_thread::sleep_for(settle);
  synchronize("after the last call");
  const origin_lookup lookup = [this](std::uint32_t correlation) { return origin(correlation); };
  return attribute(m_recorder.collect(), 0, lookup);
}

}  // namespace kopt::harness
