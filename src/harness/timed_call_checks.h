#pragma once
// Every timed call is a call under test. Before each call (outside the timed region) the
// kernel's inputs are made fresh on the device from (seed, call index) and its outputs are
// poisoned, so no remembered answer fits and no output is found ready. After the call, a
// random choice that the kernel cannot see in advance picks it for a full check: guards,
// inputs unchanged, outputs against the reference on the same inputs, made again from the
// same seed. About one call in 32 is checked, then more at the end until at least
// max(10, calls/32) were, and always the last one: a kernel that behaves differently when it
// believes it is only being timed (call counting, caching by pointer or contents, deferred
// work) is caught.

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "cuda/driver_api.h"
#include "harness/buffer_contents.h"
#include "harness/device_buffers.h"
#include "harness/input_generator.h"
#include "kernel/buffer_plan.h"
#include "validate/tolerance.h"

namespace kopt::harness {

// A checked call whose outputs wait for a reference that runs later (the Python runner).
struct deferred_check {
  std::uint64_t call = 0;
  buffer_contents inputs;          // what the kernel was given (`out` entries: the poison)
  buffer_contents kernel_outputs;  // what it left (input entries empty)
};

class timed_call_checks {
 public:
  // The expected outputs for inputs already made in `scratch` (a native reference runs on
  // them there); empty: the reference runs later on deferred checks, or there is none.
  using reference_on_scratch = std::function<buffer_contents()>;

  // [bytes] of host memory deferred checks may hold; past it, fewer calls are checked.
  static constexpr std::size_t deferred_budget = std::size_t{2} << 30;

  timed_call_checks(const cuda::driver_api& api, const kernel::kernel_plan& plan, device_buffers& kernel,
                    device_buffers& scratch, input_generator& generator, std::uint64_t seed,
                    reference_on_scratch reference, bool defer_to_later_reference,
                    validate::tolerance_overrides tolerances);

  // Fresh inputs for `call` in `target` and its outputs poisoned (enqueued; the timer
  // synchronises before the call).
  void prepare_call(device_buffers& target, std::uint64_t call);

  // After the kernel's call `call`: maybe check it. Throws kernel_failure on a failed check.
  void after_call(std::uint64_t call);
  // Asked when the stopping rule is met: whether more checked calls are needed.
  bool wants_more();
  // After the last call: checks it unless it was.
  void finish(std::uint64_t last_call);

  std::vector<deferred_check>& deferred() { return m_deferred; }
  // {"calls", "checked", "checked_calls", "deferred", "skipped_for_memory", "rule"}
  json summary() const;

 private:
  void check(std::uint64_t call);

  const cuda::driver_api& m_api;
  const kernel::kernel_plan& m_plan;
  device_buffers& m_kernel;
  device_buffers& m_scratch;
  input_generator& m_generator;
  std::uint64_t m_seed;
  reference_on_scratch m_reference;
  bool m_defer;
  validate::tolerance_overrides m_tolerances;
  std::mt19937_64 m_random;          // seeded from the OS, never from --seed: unpredictable
  bool m_topping_up = false;
  std::uint64_t m_calls = 0;
  std::vector<std::uint64_t> m_checked;
  std::vector<deferred_check> m_deferred;
  std::size_t m_deferred_bytes = 0;
  std::uint64_t m_skipped_for_memory = 0;
};

}  // namespace kopt::harness
