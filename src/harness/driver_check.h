#pragma once
// One way for the harness's own GPU helpers (the L2 flush, the launch hold, the input
// generator) to fail on a driver call: an error that names the helper, the call and the
// driver's own words for the code.

#include <string_view>

#include "cuda/driver_api.h"

namespace kopt::harness {

// Throws kopt::error "PART: CALL failed: <api.describe(rc)>" unless rc is CUDA_SUCCESS.
void check_driver_call(const cuda::driver_api& api, CUresult rc, std::string_view part,
                       std::string_view call);

}  // namespace kopt::harness
