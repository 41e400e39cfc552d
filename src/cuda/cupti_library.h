#pragma once
// libcupti, opened once per process at run time and shared by kopt's two uses of it: the
// activity records (device timestamps of the work) and the API callbacks (which host call
// issued that work).

#include <mutex>
#include <string>

namespace kopt::cuda {

// The library's handle, or nullptr when it cannot be found; `problem` then says why.
void* cupti_library(std::string* problem);

// A client of the library (the activity recorder, the launch attribution), started once per
// process: `setup(handle)` binds what the client needs and subscribes, and returns "" or why it
// could not; `make()` gives the client's one instance. Every call gets the first call's answer:
// the instance, or nullptr with `problem` set.
template <typename Client, typename Setup, typename Make>
Client* start_cupti_client_once(std::string* problem, Setup setup, Make make) {
  static Client* instance = nullptr;
  static std::string start_problem;
  static std::once_flag once;
  std::call_once(once, [&] {
    void* handle = cupti_library(&start_problem);
    if (handle == nullptr) return;
    start_problem = setup(handle);
    if (start_problem.empty()) instance = make();
  });
  if (instance == nullptr && problem != nullptr) *problem = start_problem;
  return instance;
}

// CUPTI's text for a result code ("CUPTI_ERROR_NOT_INITIALIZED"), or the number.
std::string describe_cupti_result(int result);

}  // namespace kopt::cuda
