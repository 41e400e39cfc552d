#include "harness/launch_hold.h"

#include <algorithm>

#include "harness/driver_check.h"
#include "harness/launch_hold_ptx.h"

namespace kopt::harness {

launch_hold::launch_hold(const cuda::driver_api& api) : m_api(api) {
  check_driver_call(api, api.module_load_data(&m_module, launch_hold_ptx), "launch hold",
                    "loading the hold kernel (cuModuleLoadData)");
  check_driver_call(api, api.module_get_function(&m_kernel, m_module, kernel_name), "launch hold",
                    "cuModuleGetFunction");
}

void launch_hold::hold(std::chrono::nanoseconds time) {
  if (time.count() <= 0) return;
  unsigned long long nanoseconds = static_cast<unsigned long long>(time.count());
  void* arguments[] = {&nanoseconds};
  check_driver_call(m_api, m_api.launch_kernel(m_kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, arguments, nullptr),
                    "launch hold", "cuLaunchKernel");
}

std::chrono::nanoseconds launch_hold::next_hold(std::chrono::nanoseconds previous_issue_time) {
  return std::min<std::chrono::nanoseconds>(previous_issue_time + previous_issue_time / 4, longest);
}

}  // namespace kopt::harness
