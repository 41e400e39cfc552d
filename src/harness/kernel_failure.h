#pragma once
// A failure of the code under test, not of kopt or the machine: it becomes the result's
// status and reason (exit 1), never an exception that escapes the measuring process.

#include <string>

#include "harness/run_status.h"

namespace kopt::harness {

struct kernel_failure {
  run_status status = run_status::failed;  // failed or crashed
  std::string reason;  // one line; starts with the class of the failure ("no write: ...")
  std::string detail;  // what supports it (a Python traceback, say); may be empty
};

}  // namespace kopt::harness
