#pragma once
// Every timed call is a call under test. Before each call (outside the timed region) the
// kernel's inputs are made fresh on the device from (seed, call index) and its outputs are
// poisoned, so no remembered answer fits and no output is found ready. After the call, a
// random choice that the kernel cannot see in advance picks it for a full check: guards and
// inputs unchanged here, and its outputs handed to the parent, which compares them with the
// reference's outputs for the same inputs (made again from the same seed in the reference's
// own process). About one call in 32 is checked, then more at the end until at least
// max(10, calls/32) were, and always the last one: a kernel that behaves differently when it
// believes it is only being timed (call counting, caching by pointer or contents, deferred
// work) is caught.

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "harness/child_report.h"
#include "cuda/driver_api.h"
#include "harness/buffer_contents.h"
#include "harness/device_buffers.h"
#include "harness/input_generator.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

class timed_call_checks {
 public:
  // Where a checked call's outputs go (the parent compares them with the reference's outputs
  // for the same inputs): called with the kernel's buffers, whose outputs it keeps; empty when
  // there is no reference to compare with.
  using evidence_sink = std::function<void(std::uint64_t call, const device_buffers& kernel)>;

  // [bytes] of outputs the checked calls may leave; past it, fewer calls have their outputs
  // compared (guards and inputs are still checked).
  static constexpr std::size_t evidence_budget = std::size_t{2} << 30;

  timed_call_checks(const cuda::driver_api& api, const kernel::kernel_plan& plan, device_buffers& kernel,
                    device_buffers& scratch, input_generator& generator, std::uint64_t seed, evidence_sink keep);

  // Fresh inputs for `call` in `target` and its outputs poisoned (enqueued; the timer
  // synchronises before the call).
  void prepare_call(device_buffers& target, std::uint64_t call);

  // After the kernel's call `call`: maybe check it. Throws kernel_failure on a failed check.
  void after_call(std::uint64_t call);
  // Asked when the stopping rule is met: whether more checked calls are needed.
  bool wants_more();
  // After the last call: checks it unless it was.
  void finish(std::uint64_t last_call);

  // {"calls", "checked", "checked_calls", "outputs_kept", "outputs_unchecked_for_memory", "rule"}
  timed_call_summary summary() const;

 private:
  void check(std::uint64_t call);
  // Hands the call's outputs to the parent, within the evidence budget.
  void keep_outputs(std::uint64_t call);

  const cuda::driver_api& m_api;
  const kernel::kernel_plan& m_plan;
  device_buffers& m_kernel;
  device_buffers& m_scratch;
  input_generator& m_generator;
  std::uint64_t m_seed;
  evidence_sink m_keep;
  std::mt19937_64 m_random;          // seeded from the OS, never from --seed: unpredictable
  bool m_topping_up = false;
  std::uint64_t m_calls = 0;
  std::vector<std::uint64_t> m_checked;
  std::size_t m_outputs_kept = 0;
  std::size_t m_kept_bytes = 0;
  std::uint64_t m_skipped_for_memory = 0;
};

}  // namespace kopt::harness
