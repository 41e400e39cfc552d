#include "core/sandboxed_process.h"

#include <exception>
#include <thread>

#include "core/subprocess.h"

namespace kopt {

sandboxed_run run_process_sandboxed(const process_request& request, const write_allowance& allowed) {
  sandboxed_run run;
  std::exception_ptr failure;
  // The thread takes the restriction with it when it ends.
  std::thread restricted([&] {
    try {
      run.sandbox = restrict_writes_to(allowed);
      if (!run.sandbox.applied) {
        run.process.start_error = "no write sandbox (" + run.sandbox.description + ")";
        return;
      }
      run.process = run_process(request);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  restricted.join();
  if (failure) std::rethrow_exception(failure);
  return run;
}

write_sandbox probe_write_sandbox() {
  write_sandbox probe;
  std::thread restricted([&] { probe = restrict_writes_to({}); });
  restricted.join();
  return probe;
}

}  // namespace kopt
