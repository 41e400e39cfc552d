#include "harness/work_attribution.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace kopt::harness {

work_owner owner_of(const std::optional<cuda::api_origin>& origin, std::uint64_t window) {
  if (!origin) return work_owner::unattributed;
  if (origin->window != 0) return window != 0 && origin->window == window ? work_owner::this_call : work_owner::earlier_call;
  return origin->harness_thread ? work_owner::harness : work_owner::foreign;
}

namespace {

const char* kind_name(const cuda::gpu_activity& a) {
  return a.what == cuda::gpu_activity::kind::kernel ? "kernel" : a.what == cuda::gpu_activity::kind::memcpy ? "copy" : "memset";
}

std::string describe(const cuda::gpu_activity& a, const cuda::api_origin& origin) {
  return fmt::format("a {}{} issued by {} from another thread while no solve() call was running", kind_name(a),
                     a.name.empty() ? "" : " " + a.name, origin.function.empty() ? "an API call" : origin.function);
}

// "a kernel k of call 3".
std::string describe_of_call(const cuda::gpu_activity& a, std::uint64_t window) {
  return fmt::format("a {}{} of call {}", kind_name(a), a.name.empty() ? "" : " " + a.name, window);
}

// Seen on an H200: a copy between a context of the kernel's own and kopt's came with a start of
// 0, which made the call's span the time since 1970.
bool has_valid_times(const cuda::gpu_activity& a) { return a.start_ns > 0 && a.end_ns >= a.start_ns; }

}  // namespace

call_work attribute(const std::vector<cuda::gpu_activity>& records, std::uint64_t window,
                    const origin_lookup& lookup) {
  call_work work;
  std::uint64_t first_start = UINT64_MAX;
  std::uint64_t last_end = 0;
  std::set<std::uint32_t> streams;
  for (const cuda::gpu_activity& a : records) {
    const auto origin = lookup(a.correlation);
    switch (owner_of(origin, window)) {
      case work_owner::harness:
        if (work.harness_stream == no_stream) work.harness_stream = a.stream;
        continue;
      case work_owner::earlier_call:
        if (work.late.empty()) work.late = describe_of_call(a, origin->window);
        continue;
      case work_owner::unattributed:
        // Work whose issuing call CUPTI never reported: counted as the call's when a call is
        // being judged (nothing else ran in its window), so that no API kopt does not watch
        // can hide work from the timer; ignored between calls.
        ++work.unattributed;
        if (window == 0) continue;
        break;
      case work_owner::foreign:
        if (work.foreign.empty()) work.foreign = describe(a, *origin);
        continue;
      case work_owner::this_call:
        break;
    }
    if (!has_valid_times(a)) {
      if (work.unreadable.empty()) work.unreadable = describe_of_call(a, window);
      continue;
    }
    first_start = std::min(first_start, a.start_ns);
    last_end = std::max(last_end, a.end_ns);
    streams.insert(a.stream);
    if (a.what == cuda::gpu_activity::kind::kernel) {
      work.kernel_ns += static_cast<double>(a.duration_ns());
      ++work.kernels;
      work.kernel_names.insert(a.name);
    } else {
      work.memory_ops_ns += static_cast<double>(a.duration_ns());
      ++work.memory_ops;
      if (a.crosses_host) work.host_copy_bytes += a.bytes;
    }
  }
  work.span_ns = last_end > first_start ? static_cast<double>(last_end - first_start) : 0;
  work.streams = static_cast<int>(streams.size());
  work.stream_ids.assign(streams.begin(), streams.end());
  return work;
}

}  // namespace kopt::harness
