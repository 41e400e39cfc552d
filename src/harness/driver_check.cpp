#include "harness/driver_check.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::harness {

void check_driver_call(const cuda::driver_api& api, CUresult rc, std::string_view part,
                       std::string_view call) {
  if (rc != CUDA_SUCCESS) throw error(fmt::format("{}: {} failed: {}", part, call, api.describe(rc)));
}

}  // namespace kopt::harness
