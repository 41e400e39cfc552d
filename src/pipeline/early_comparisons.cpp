#include "pipeline/early_comparisons.h"

#include <chrono>
#include <filesystem>

#include "core/error.h"

namespace kopt::pipeline {
namespace {

// How often a key's mark is looked for: far below a key's comparison (milliseconds for
// megabytes), so the comparisons follow the reference's process closely.
constexpr std::chrono::milliseconds mark_poll{1};

unsigned half_the_hardware_threads() {
  return std::max(1u, std::thread::hardware_concurrency() / 2);
}

bool same_tolerances(const kernel::kernel_plan& plan, const validate::tolerance_overrides& a,
                     const validate::tolerance_overrides& b) {
  for (const auto& buffer : plan.buffers) {
    if (buffer.role == kernel::buffer_role::in) continue;
    const validate::tolerance x = validate::resolve_tolerance(buffer.param.element, a);
    const validate::tolerance y = validate::resolve_tolerance(buffer.param.element, b);
    // The sources too: the comparison's document names where each figure came from.
    if (x.atol != y.atol || x.rtol != y.rtol || x.exact != y.exact || x.atol_source != y.atol_source ||
        x.rtol_source != y.rtol_source) {
      return false;
    }
  }
  return true;
}

}  // namespace

early_comparisons::early_comparisons(const kernel::kernel_plan& plan,
                                     const std::vector<harness::evidence_key>& keys,
                                     const evidence_folders& folders,
                                     const validate::tolerance_overrides& tolerances, compared_outputs after,
                                     reference_tolerances whose)
    : m_plan(plan),
      m_keys(keys),
      m_folders(folders),
      m_tolerances(tolerances),
      m_after(after),
      m_whose(whose),
      m_compared(keys.size()) {
  m_thread = std::thread([this] {
    compare_as_marked();
    m_done = true;
  });
}

early_comparisons::~early_comparisons() {
  stop();
}

void early_comparisons::stop() {
  m_stop = true;
  if (m_thread.joinable()) m_thread.join();
}

bool early_comparisons::await_tolerances() {
  while (true) {
    if (m_stop) return false;
    ++m_looks;
    std::optional<harness::announced_tolerances> announced;
    try {
      announced = harness::read_announced_tolerances(m_folders.reference);
    } catch (const error&) {
      return false;  // nothing early: the verdict compares with the result's tolerances
    }
    if (announced) {
      m_tolerances.reference_atol = announced->atol;
      m_tolerances.reference_rtol = announced->rtol;
      return true;
    }
    std::this_thread::sleep_for(mark_poll);
  }
}

void early_comparisons::compare_as_marked() {
  if (m_whose == reference_tolerances::announced && !await_tolerances()) return;
  for (std::size_t i = 0; i < m_keys.size(); ++i) {
    const harness::evidence_key& key = m_keys[i];
    while (!harness::evidence_complete(m_folders.reference, key)) {
      if (m_stop) return;
      ++m_looks;
      std::this_thread::sleep_for(mark_poll);
    }
    if (m_stop) return;
    try {
      const harness::mapped_evidence kernel_side =
          harness::read_evidence(m_folders.kernel, key, m_plan, "the kernel's measuring process");
      const harness::mapped_evidence reference_side =
          harness::read_evidence(m_folders.reference, key, m_plan, "the reference's measuring process");
      m_compared[i] = harness::compare_outputs(m_plan, kernel_side.buffers, reference_side.buffers,
                                               m_tolerances, half_the_hardware_threads());
    } catch (const error&) {
      return;  // judge_outputs reads it again, and says why
    }
    if (m_after == compared_outputs::removed) {
      // Unmapped by now: removing the files frees their memory.
      std::error_code ec;
      std::filesystem::remove_all(m_folders.kernel / harness::folder_name(key), ec);
      std::filesystem::remove_all(m_folders.reference / harness::folder_name(key), ec);
    }
    ++m_compared_count;
  }
}

compared_keys early_comparisons::take(const validate::tolerance_overrides& final_tolerances) {
  stop();
  if (!same_tolerances(m_plan, m_tolerances, final_tolerances)) {
    if (m_after == compared_outputs::removed && m_compared_count > 0) {
      throw error(
          "kopt bug: outputs compared and removed under tolerances the verdict does not use; report it "
          "with the command line");
    }
    return compared_keys(m_keys.size());
  }
  return std::move(m_compared);
}

}  // namespace kopt::pipeline
