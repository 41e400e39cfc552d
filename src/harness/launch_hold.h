#pragma once
// Launches kopt_launch_hold (device/launch_hold.cu): a one-thread kernel that keeps the default
// stream busy for a given time, so that the launches of the call that follows queue behind it
// and run back to back, as they would in a program whose host runs ahead of the GPU.

#include <chrono>

#include <cuda.h>

#include "cuda/driver_api.h"

namespace kopt::harness {

class launch_hold {
 public:
  // Loads the kernel into the current context. Throws kopt::error on a driver failure.
  explicit launch_hold(const cuda::driver_api& api);

  // Enqueues the hold on the default stream (no synchronisation); nothing for a zero time.
  void hold(std::chrono::nanoseconds time);

  // The kernel's name: its records are kopt's own work, never a call's.
  static constexpr const char* kernel_name = "kopt_launch_hold";

  // The hold before each call: a quarter more than the host took to issue the previous call
  // (so that the whole call is queued when the hold ends), at most `longest`. A call that
  // synchronises inside returns only when its work is done; its hold reaches the cap and costs
  // at most that per sample.
  static constexpr std::chrono::microseconds longest{250};
  static std::chrono::nanoseconds next_hold(std::chrono::nanoseconds previous_issue_time);

 private:
  const cuda::driver_api& m_api;
  CUmodule m_module = nullptr;
  CUfunction m_kernel = nullptr;
};

}  // namespace kopt::harness
