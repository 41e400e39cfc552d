#pragma once
// How a run of the code under test ended. `failed`: a check failed (the reason names it);
// `crashed`: the process died or the device failed; `timed_out`: it was killed at its limit.

#include <boost/describe.hpp>

namespace kopt::harness {

enum class run_status { ok, failed, crashed, timed_out };
BOOST_DESCRIBE_ENUM(run_status, ok, failed, crashed, timed_out)

}  // namespace kopt::harness
