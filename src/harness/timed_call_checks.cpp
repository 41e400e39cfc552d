#include "harness/timed_call_checks.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/kernel_failure.h"
#include "harness/output_checks.h"

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
                                     reference_on_scratch reference, bool defer_to_later_reference,
                                     validate::tolerance_overrides tolerances)
    : m_api(api),
      m_plan(plan),
      m_kernel(kernel),
      m_scratch(scratch),
      m_generator(generator),
      m_seed(seed),
      m_reference(std::move(reference)),
      m_defer(defer_to_later_reference),
      m_tolerances(tolerances),
      m_random(std::random_device{}()) {}

void timed_call_checks::prepare_call(device_buffers& target, std::uint64_t call) {
  for (std::size_t i = 0; i < m_plan.buffers.size(); ++i) {
    const auto& b = m_plan.buffers[i];
    if (b.role == kernel::buffer_role::out) {
      target.poison(i);
    } else {
      m_generator.generate(i, target.data(i), call_seed(m_seed, b.param.name, call));
    }
  }
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
  const auto fail = [&](const std::string& what) {
    throw kernel_failure{"failed", fmt::format("timed call {} (checked at random): {}", call, what)};
  };
  // The call's inputs again, from the same seed, beside the kernel's buffers.
  prepare_call(m_scratch, call);
  if (const CUresult rc = m_api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw error(fmt::format("making a checked call's inputs again failed: {}", m_api.describe(rc)));
  }
  buffer_contents inputs(m_plan.buffers.size());
  for (std::size_t i = 0; i < m_plan.buffers.size(); ++i) inputs[i] = m_scratch.download(i);
  if (const auto problem = check_guards_and_inputs(m_plan, m_kernel, inputs)) fail(*problem);
  m_checked.push_back(call);
  buffer_contents kernel_outputs = download_outputs(m_plan, m_kernel);
  if (m_reference) {
    const outputs_verdict verdict = compare_outputs(m_plan, kernel_outputs, m_reference(), m_tolerances);
    if (verdict.failure) fail(*verdict.failure);
    return;
  }
  if (!m_defer) return;
  std::size_t bytes = 0;
  for (const auto& b : inputs) bytes += b.size();
  for (const auto& b : kernel_outputs) bytes += b.size();
  if (m_deferred_bytes + bytes > deferred_budget && !m_deferred.empty()) {
    // Guards and inputs were checked; the outputs of this call go unchecked for lack of memory.
    ++m_skipped_for_memory;
    return;
  }
  m_deferred_bytes += bytes;
  m_deferred.push_back({call, std::move(inputs), std::move(kernel_outputs)});
}

json timed_call_checks::summary() const {
  return json{{"calls", m_calls},
              {"checked", m_checked.size()},
              {"checked_calls", m_checked},
              {"outputs_checked_later", m_deferred.size()},
              {"outputs_unchecked_for_memory", m_skipped_for_memory},
              {"rule", fmt::format("fresh inputs from (seed, call) and poisoned outputs before every call; about 1 in {} "
                                   "calls checked at random, then 1 in {} until at least max({}, calls/{}), and the "
                                   "last call",
                                   sampling_check_odds, top_up_check_odds, minimum_checks, sampling_check_odds)}};
}

}  // namespace kopt::harness
