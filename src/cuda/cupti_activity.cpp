#include "cuda/cupti_activity.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <type_traits>

#include <fmt/format.h>

#include "cuda/cupti_library.h"

namespace kopt::cuda {
namespace {

struct cupti_api {
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped = nullptr;

  std::string describe(CUptiResult rc) const { return describe_cupti_result(static_cast<int>(rc)); }
};

// [bytes] per CUPTI activity buffer: one sample produces a few records of ~200 bytes; a
// call launching thousands of kernels fills several buffers, which CUPTI then requests.
// A large buffer costs host time in the next call: on an H200 the host time of a 63 µs
// kernel was 0.62 ms with 8 MiB buffers, 0.25 ms with 256 KiB and the same with 64 KiB.
constexpr std::size_t buffer_bytes = 64u << 10;

cupti_api api;
std::mutex store_mutex;
std::vector<gpu_activity> store;

// Buffers CUPTI handed back, kept for reuse: every collect() forces CUPTI to return its
// buffer, and a fresh allocation per sample would cost page faults on the next launch.
std::mutex pool_mutex;
std::vector<std::uint8_t*> free_buffers;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  {
    const std::lock_guard<std::mutex> lock(pool_mutex);
    if (!free_buffers.empty()) {
      *buffer = free_buffers.back();
      free_buffers.pop_back();
    } else {
      *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
    }
  }
  *size = *buffer != nullptr ? buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid_bytes) {
  std::vector<gpu_activity> records;
  CUpti_Activity* record = nullptr;
  while (api.next_record(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    gpu_activity a;
    // Every record version keeps these fields at the same place; read the newest layout.
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      a = {gpu_activity::kind::kernel, k->name != nullptr ? k->name : "", k->start, k->end, k->streamId,
           k->correlationId, 0, false};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      const bool crosses_host = m->copyKind != CUPTI_ACTIVITY_MEMCPY_KIND_DTOD &&
                                m->copyKind != CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
      a = {gpu_activity::kind::memcpy, "", m->start, m->end, m->streamId, m->correlationId, m->bytes, crosses_host};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      a = {gpu_activity::kind::memset, "", m->start, m->end, m->streamId, m->correlationId, m->bytes, false};
    } else {
      continue;
    }
    records.push_back(std::move(a));
  }
  {
    const std::lock_guard<std::mutex> lock(pool_mutex);
    free_buffers.push_back(buffer);
  }
  const std::lock_guard<std::mutex> lock(store_mutex);
  store.insert(store.end(), records.begin(), records.end());
}

}  // namespace

activity_recorder* activity_recorder::start(std::string* problem) {
  const auto setup = [](void* handle) -> std::string {
    const auto bind = [&](auto& fn, const char* symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, symbol));
      return fn != nullptr;
    };
    if (!(bind(api.register_callbacks, "cuptiActivityRegisterCallbacks") && bind(api.enable, "cuptiActivityEnable") &&
          bind(api.flush_all, "cuptiActivityFlushAll") && bind(api.next_record, "cuptiActivityGetNextRecord") &&
          bind(api.dropped, "cuptiActivityGetNumDroppedRecords"))) {
      return "libcupti.so lacks the activity API kopt needs";
    }
    if (const CUptiResult rc = api.register_callbacks(buffer_requested, buffer_completed); rc != CUPTI_SUCCESS) {
      return fmt::format("CUPTI refused its callbacks: {}", api.describe(rc));
    }
    for (const CUpti_ActivityKind kind :
         {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET}) {
      if (const CUptiResult rc = api.enable(kind); rc != CUPTI_SUCCESS) {
        return fmt::format("CUPTI cannot record GPU activity: {} (is a profiler attached?)",
                           api.describe(rc));
      }
    }
    return "";
  };
  return start_cupti_client_once<activity_recorder>(problem, setup, [] {
    static activity_recorder recorder;
    return &recorder;
  });
}

std::vector<gpu_activity> activity_recorder::collect() {
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::vector<gpu_activity> records;
  {
    const std::lock_guard<std::mutex> lock(store_mutex);
    records.swap(store);
  }
  std::sort(records.begin(), records.end(), [](const auto& l, const auto& r) { return l.start_ns < r.start_ns; });
  return records;
}

std::uint64_t activity_recorder::dropped_records() const {
  std::size_t dropped = 0;
  api.dropped(nullptr, 0, &dropped);
  return dropped;
}

}  // namespace kopt::cuda
