#pragma once
// libcupti, opened once per process at run time and shared by kopt's two uses of it: the
// activity records (device timestamps of the work) and the API callbacks (which host call
// issued that work).

#include <string>

namespace kopt::cuda {

// The library's handle, or nullptr when it cannot be found; `problem` then says why.
void* cupti_library(std::string* problem);

// CUPTI's text for a result code ("CUPTI_ERROR_NOT_INITIALIZED"), or the number.
std::string describe_cupti_result(int result);

}  // namespace kopt::cuda
