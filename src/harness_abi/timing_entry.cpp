// The timing entry point: a thin shell over harness::sample_gpu_time, so that the Python
// runner's samples are taken exactly as the harness takes them.
#include <memory>
#include <string>

#include "abi_text.h"

#include "core/error.h"
#include "core/json_io.h"
#include "core/json_limits.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "cuda/launch_attribution.h"
#include "harness/gpu_sharing.h"
#include "harness/kernel_failure.h"
#include "harness/l2_flush.h"
#include "harness/runner_documents.h"
#include "harness/sampling.h"
#include "kopt_harness_abi.h"

namespace {
using kopt::json;
using kopt::harness_abi::copy_out;

// A callback returned nonzero: the caller holds the reason (a Python exception, say).
struct callback_failed {};

// The device the current context belongs to, with what the engine needs of it.
struct current_device {
  std::string uuid;
  std::size_t l2_bytes = 0;  // [bytes]
};

current_device find_current_device(const kopt::cuda::driver_api& api) {
  CUcontext context = nullptr;
  if (api.ctx_get_current(&context) != CUDA_SUCCESS || context == nullptr) {
    throw kopt::error("no CUDA context is current on this thread: create a device tensor (or initialise CUDA) first");
  }
  CUdevice device = 0;
  api.ctx_get_device(&device);
  int l2 = 0;
  api.device_get_attribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
  CUuuid uuid{};
  api.device_get_uuid(&uuid, device);
  return {kopt::cuda::format_uuid(uuid), static_cast<std::size_t>(l2)};
}

}  // namespace

extern "C" int kopt_timing_sample(kopt_timing_callback call, kopt_timing_callback before_each, void* context,
                                  const char* options_json, char** result_json) {
  try {
    std::string problem;
    const kopt::cuda::driver_api* api = kopt::cuda::load_driver_api(&problem);
    if (api == nullptr) throw kopt::error(problem);
    const current_device device = find_current_device(*api);
    const auto options = kopt::read_document<kopt::harness::timing_options>(
        kopt::parse_json_checked(options_json != nullptr ? options_json : "null"), "the timing options",
        "give every field of kopt.timing options (kopt_harness_abi.h)");
    kopt::harness::sampling_options sampling;
    static_cast<kopt::measure::sampling_settings&>(sampling) = options;
    sampling.judge_work = options.judge;
    sampling.output_bytes = options.output_bytes;
    const bool hot = options.hot;
    kopt::cuda::activity_recorder* recorder = kopt::cuda::activity_recorder::start(&problem);
    if (recorder == nullptr) throw kopt::error(problem);
    // Only the version under test is judged; a reference's process is left unwatched.
    kopt::cuda::launch_attribution* attribution = nullptr;
    if (sampling.judge_work) {
      attribution = kopt::cuda::launch_attribution::start(&problem);
      if (attribution == nullptr) throw kopt::error(problem);
    }
    // The flush kernel's module is loaded into the current context once per process.
    static std::unique_ptr<kopt::harness::l2_flusher> flusher;
    if (!hot && !flusher) {
      flusher = std::make_unique<kopt::harness::l2_flusher>(*api, device.l2_bytes);
    }
    const auto invoke = [&] {
      if (call(context) != 0) throw callback_failed{};
    };
    kopt::harness::sampling_hooks hooks;
    if (before_each != nullptr) {
      hooks.before_each = [&](std::uint64_t) {
        if (before_each(context) != 0) throw callback_failed{};
      };
    }
    kopt::harness::sampled_timing result;
    result.timing = kopt::harness::sample_gpu_time(*api, *recorder, attribution, hot ? nullptr : flusher.get(), invoke,
                                                   sampling, device.uuid, hooks);
    result.protocol = kopt::harness::protocol_description(hot, device.l2_bytes);
    if (const auto warning = kopt::harness::other_processes_warning(device.uuid)) result.warnings.push_back(*warning);
    *result_json = copy_out(kopt::json_text(kopt::to_document(result), -1));
    return 0;
  } catch (const kopt::harness::kernel_failure& failure) {
    // The judge's verdict on the timed code: status and reason for the caller's result.
    *result_json = copy_out(kopt::json_text(
        kopt::to_document(kopt::harness::call_failure{failure.status, failure.reason, failure.detail}), -1));
    return 4;
  } catch (const callback_failed&) {
    *result_json = copy_out("the timed code failed");
    return 2;
  } catch (const kopt::error& e) {
    *result_json = copy_out(e.headline());
    return e.headline().find("device") != std::string::npos ? 3 : 1;
  } catch (const std::exception& e) {
    *result_json = copy_out(e.what());
    return 1;
  }
}
