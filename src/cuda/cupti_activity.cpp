#include "cuda/cupti_activity.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <type_traits>

#include <fmt/format.h>

namespace kopt::cuda {
namespace {

struct cupti_api {
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;

  std::string describe(CUptiResult rc) const {
    const char* text = nullptr;
    if (result_string != nullptr) result_string(rc, &text);
    return text != nullptr ? text : fmt::format("CUptiResult {}", static_cast<int>(rc));
  }
};

// Where libcupti lives: already in the process (torch loads its own copy; a second copy
// would fight it for the profiling interface), on the loader path, in the toolkit, or in
// its extras folder.
void* open_cupti() {
  for (const char* soname : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    if (void* loaded = ::dlopen(soname, RTLD_NOW | RTLD_NOLOAD)) return loaded;
  }
  std::vector<std::string> candidates = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
  for (const char* root_variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* root = std::getenv(root_variable); root != nullptr && *root != '\0') {
      candidates.push_back(fmt::format("{}/lib64/libcupti.so", root));
      candidates.push_back(fmt::format("{}/extras/CUPTI/lib64/libcupti.so", root));
    }
  }
  candidates.emplace_back("/usr/local/cuda/lib64/libcupti.so");
  candidates.emplace_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
  candidates.emplace_back("/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so");
  for (const auto& candidate : candidates) {
    if (void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL)) return handle;
  }
  return nullptr;
}

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
           k->correlationId};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      a = {gpu_activity::kind::memcpy, "", m->start, m->end, m->streamId, m->correlationId};
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      a = {gpu_activity::kind::memset, "", m->start, m->end, m->streamId, m->correlationId};
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
  static activity_recorder* instance = nullptr;
  static std::string start_problem;
  static std::once_flag once;
  std::call_once(once, [] {
    void* handle = open_cupti();
    if (handle == nullptr) {
      start_problem = "CUPTI (libcupti.so) not found: install the CUDA toolkit's CUPTI or set CUDA_HOME";
      return;
    }
    const auto bind = [&](auto& fn, const char* symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, symbol));
      return fn != nullptr;
    };
    if (!(bind(api.register_callbacks, "cuptiActivityRegisterCallbacks") && bind(api.enable, "cuptiActivityEnable") &&
          bind(api.flush_all, "cuptiActivityFlushAll") && bind(api.next_record, "cuptiActivityGetNextRecord") &&
          bind(api.dropped, "cuptiActivityGetNumDroppedRecords") &&
          bind(api.result_string, "cuptiGetResultString"))) {
      start_problem = "libcupti.so lacks the activity API kopt needs";
      return;
    }
    if (const CUptiResult rc = api.register_callbacks(buffer_requested, buffer_completed); rc != CUPTI_SUCCESS) {
      start_problem = fmt::format("CUPTI refused its callbacks: {}", api.describe(rc));
      return;
    }
    for (const CUpti_ActivityKind kind :
         {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET}) {
      if (const CUptiResult rc = api.enable(kind); rc != CUPTI_SUCCESS) {
        start_problem = fmt::format("CUPTI cannot record GPU activity: {} (is a profiler attached?)", api.describe(rc));
        return;
      }
    }
    static activity_recorder recorder;
    instance = &recorder;
  });
  if (instance == nullptr && problem != nullptr) *problem = start_problem;
  return instance;
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
