#include "harness/timed_call_checks.h"

#include <algorithm>

#include <fmt/format.h>

#include "harness/gpu_context.h"
#include "harness/kernel_failure.h"
#include "harness/output_checks.h"
#include "harness/outputs_settled.h"

namespace kopt::harness {
namespace {

// One call in this many is checked while sampling; while topping up, one in two.
constexpr std::uint32_t sampling_check_odds = 32;
constexpr std::uint32_t top_up_check_odds = 2;
constexpr std::uint64_t minimum_checks = 10;

std::uint64_t required_checks(std::uint64_t calls) { return std::max(minimum_checks, calls / sampling_check_odds); }

}  // namespace

timed_call_checks::timed_call_checks(const cuda::driver_api& api, const kernel::kernel_plan& plan, device_buffers& kernel,
                                     device_buffers& scratch, input_generator& generator, std::uint64_t seed,
                                     evidence_sink keep)
    : m_api(api),
      m_plan(plan),
      m_kernel(kernel),
      m_scratch(scratch),
      m_generator(generator),
      m_seed(seed),
      m_keep(std::move(keep)),
      m_random(std::random_device{}()) {}

void timed_call_checks::prepare_call(device_buffers& target, std::uint64_t call) {
  prepare_call_inputs(m_generator, m_plan, target, m_seed, call);
}

void timed_call_checks::after_call(std::uint64_t call) {
  m_calls = std::max(m_calls, call);
  const std::uint32_t odds = m_topping_up ? top_up_check_odds : sampling_check_odds;
  if (m_random() % odds == 0) check(call);
}

bool timed_call_checks::wants_more() {
  m_topping_up = true;
  return m_checked.size() < required_checks(m_calls);
}

void timed_call_checks::finish(std::uint64_t last_call) {
  if (m_checked.empty() || m_checked.back() != last_call) check(last_call);
}

void timed_call_checks::check(std::uint64_t call) {
  // The call's inputs again, from the same seed, beside the kernel's buffers; its outputs as
  // they were when it returned, set aside in the scratch set's (outputs_settled.h).
  prepare_call(m_scratch, call);
  set_outputs_aside(m_plan, m_kernel, m_scratch);
  synchronize(m_api, "making a checked call's inputs again");
  if (const auto problem = check_guards_and_inputs(m_plan, m_kernel, m_scratch)) {
    throw kernel_failure{run_status::failed, fmt::format("timed call {} (checked at random): {}", call, *problem)};
  }
  m_checked.push_back(call);
  keep_outputs(call);
  if (const auto moved = outputs_changed_since_set_aside(m_plan, m_kernel, m_scratch)) {
    throw kernel_failure{run_status::failed, fmt::format("work in flight: timed call {} (checked at random): {}", call, *moved)};
  }
}

void timed_call_checks::keep_outputs(std::uint64_t call) {
  if (!m_keep) return;
  std::size_t bytes = 0;
  for (const auto& b : m_plan.buffers) {
    if (b.role != kernel::buffer_role::in) bytes += static_cast<std::size_t>(b.bytes);
  }
  if (m_kept_bytes + bytes > evidence_budget && m_outputs_kept > 0) {
    // Guards and inputs were checked; the outputs of this call go uncompared for lack of room.
    ++m_skipped_for_memory;
    return;
  }
  m_kept_bytes += bytes;
  m_keep(call, m_kernel);
  ++m_outputs_kept;
}

timed_call_summary timed_call_checks::summary() const {
  return timed_call_summary{
      m_calls, m_checked.size(), m_checked, m_outputs_kept, m_skipped_for_memory,
      fmt::format("fresh inputs from (seed, call) and poisoned outputs before every call; about 1 in {} calls checked "
                  "at random, then 1 in {} until at least max({}, calls/{}), and the last call",
                  sampling_check_odds, top_up_check_odds, minimum_checks, sampling_check_odds)};
}

}  // namespace kopt::harness
