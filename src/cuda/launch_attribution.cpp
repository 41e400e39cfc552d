#include "cuda/launch_attribution.h"

#include <cupti.h>
#include <dlfcn.h>

#include <mutex>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include <fmt/format.h>

#include "cuda/cupti_library.h"

namespace kopt::cuda {
namespace {

struct recorded_call {
  std::uint64_t window = 0;
  bool harness_thread = false;
  const char* function = "";  // CUPTI's static string
};

std::mutex calls_mutex;
std::unordered_map<std::uint32_t, recorded_call> calls;
std::uint64_t open_window_id = 0;
std::thread::id harness_thread_id;

void CUPTIAPI on_api_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite != CUPTI_API_ENTER) return;
  const std::lock_guard<std::mutex> lock(calls_mutex);
  // A runtime call and the driver calls it makes inside share no id; the first one recorded
  // for an id keeps it (the runtime's, which the activity records carry).
  calls.try_emplace(call->correlationId,
                    recorded_call{open_window_id, std::this_thread::get_id() == harness_thread_id,
                                  call->functionName != nullptr ? call->functionName : ""});
}

}  // namespace

launch_attribution* launch_attribution::start(std::string* problem) {
  const auto setup = [](void* handle) -> std::string {
    const auto subscribe = reinterpret_cast<decltype(&cuptiSubscribe)>(::dlsym(handle, "cuptiSubscribe"));
    const auto enable_domain = reinterpret_cast<decltype(&cuptiEnableDomain)>(::dlsym(handle, "cuptiEnableDomain"));
    if (subscribe == nullptr || enable_domain == nullptr)
      return "libcupti.so lacks the callback API kopt needs";
    CUpti_SubscriberHandle subscriber = nullptr;
    if (const CUptiResult rc = subscribe(&subscriber, on_api_call, nullptr); rc != CUPTI_SUCCESS) {
      return fmt::format("CUPTI refused kopt's API callbacks: {} (is another profiler attached?)",
                         describe_cupti_result(rc));
    }
    for (const CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
      if (const CUptiResult rc = enable_domain(1, subscriber, domain); rc != CUPTI_SUCCESS) {
        return fmt::format("CUPTI cannot report API calls: {}", describe_cupti_result(rc));
      }
    }
    // Until a window is opened, the thread that started the attribution is the harness's.
    const std::lock_guard<std::mutex> lock(calls_mutex);
    harness_thread_id = std::this_thread::get_id();
    return "";
  };
  return start_cupti_client_once<launch_attribution>(problem, setup, [] {
    static launch_attribution attribution;
    return &attribution;
  });
}

void launch_attribution::open_window(std::uint64_t window) {
  const std::lock_guard<std::mutex> lock(calls_mutex);
  harness_thread_id = std::this_thread::get_id();
  open_window_id = window;
}

void launch_attribution::close_window() {
  const std::lock_guard<std::mutex> lock(calls_mutex);
  open_window_id = 0;
}

std::optional<api_origin> launch_attribution::origin(std::uint32_t correlation) const {
  const std::lock_guard<std::mutex> lock(calls_mutex);
  const auto found = calls.find(correlation);
  if (found == calls.end()) return std::nullopt;
  return api_origin{found->second.window, found->second.harness_thread, found->second.function};
}

void launch_attribution::clear() {
  const std::lock_guard<std::mutex> lock(calls_mutex);
  calls.clear();
  harness_thread_id = std::this_thread::get_id();
}

}  // namespace kopt::cuda
