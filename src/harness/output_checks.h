#pragma once
// The full check of one run of the kernel, shared by the validation seeds and the timed calls
// checked at random: guards intact, inputs unchanged, every output against the reference's.
// Each failure comes back as one line that starts with its class ("out of bounds: ...",
// "write into input: ...", "no write: ...", ...).

#include <optional>
#include <string>

#include "core/json_io.h"
#include "harness/buffer_contents.h"
#include "harness/device_buffers.h"
#include "kernel/buffer_plan.h"
#include "validate/tolerance.h"

namespace kopt::harness {

// Guards of every buffer, and the bytes of every `in` buffer against the same buffer of
// `pristine` (a copy of what the kernel was given, in the same memory: compared there, so
// nothing crosses to the host). The first problem found, or nothing.
std::optional<std::string> check_guards_and_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers,
                                                   const device_buffers& pristine);

// Copies every `in` buffer of `from` into `to` (enqueued, no waiting): the pristine copy.
void copy_inputs(const kernel::kernel_plan& plan, const device_buffers& from, device_buffers& to);

struct outputs_verdict {
  json outputs = json::array();        // one comparison document per output
  std::optional<std::string> failure;  // the first failing output's verdict line
  std::string failing_output;          // its name
};

// Every non-input buffer of `kernel_outputs` against `expected` (entries of inputs ignored), on
// up to `threads` threads (0: every hardware thread).
outputs_verdict compare_outputs(const kernel::kernel_plan& plan, const buffer_views& kernel_outputs,
                                const buffer_views& expected, const validate::tolerance_overrides& tolerances,
                                unsigned threads = 0);

// The bytes of every `in` and `inout` buffer (output entries left empty).
buffer_contents download_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers);

}  // namespace kopt::harness
