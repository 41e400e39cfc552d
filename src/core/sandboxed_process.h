#pragma once
// A program run under a write sandbox (write_sandbox.h) that kopt itself is not under: the
// agent of `kopt loop --agent CMD --agent-sandbox`. Landlock restricts the thread that applies
// it and whatever that thread starts from then on, and never the rest of the process; kopt
// starts programs with posix_spawn, which runs none of kopt's code between the fork and the
// exec. So the program is started, and waited for, from a thread of its own that restricts
// itself first and ends with the program: the program inherits the restriction at its start,
// as if applied in the child before the exec, and kopt's other threads keep their rights.

#include "core/process_request.h"
#include "core/write_sandbox.h"

namespace kopt {

struct sandboxed_run {
  write_sandbox sandbox;   // what was applied; when not applied, the program was not started
  process_result process;  // as run_process fills it
};

// Runs `request` as run_process does, restricted to writing `allowed`. Never starts it
// unrestricted: without Landlock, `process.started` is false and `sandbox.description` says why.
sandboxed_run run_process_sandboxed(const process_request& request, const write_allowance& allowed);

// Whether a write sandbox can be applied here (tried on a thread that ends at once).
write_sandbox probe_write_sandbox();

}  // namespace kopt
