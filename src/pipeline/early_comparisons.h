#pragma once
// The verdict's comparisons begun while the reference's process still runs. The kernel's
// outputs are final (its process has ended); the reference's process marks each key's outputs
// complete as it goes (harness::evidence_complete; kopt's Python runner marks them too). Each key whose mark
// is there is compared as it comes, in the keys' order, on half the hardware threads: the reference's process
// keeps the rest for its own outputs and its timing. judge_outputs takes what was compared and compares the
// rest once the reference's process has ended.
//
// Nothing is decided here. A key that cannot be read is left for judge_outputs, which reads it
// again and says why; and what was compared is only used where the tolerance it was compared
// with is the one the verdict uses. A Python reference's module may name its own: its runner
// announces them before its first outputs (harness::read_announced_tolerances), and the keys
// are compared with those; the module's final word comes with the process's result, and
// take() drops everything when it differs.
//
// Where what is compared here is final (a `.cu` reference: its tolerances are the flags', and
// its process runs once), each compared key's outputs on both sides are removed at once, so
// that freeing gigabytes of them overlaps the reference's process instead of following it.

#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include "harness/output_checks.h"
#include "pipeline/output_verdict.h"

namespace kopt::pipeline {

// By key index; nothing where the key was not compared.
using compared_keys = std::vector<std::optional<harness::outputs_verdict>>;

// What becomes of a key's outputs once compared: kept (the comparison may be dropped and made
// again, or the reference run again) or removed (what was compared is final).
enum class compared_outputs { kept, removed };

// Whose tolerances the comparisons use: the given ones, or those with the reference module's
// own as its runner announces them (nothing is compared before they are).
enum class reference_tolerances { given, announced };

class early_comparisons {
 public:
  // Starts comparing. `plan`, `keys` and `folders` must outlive this object.
  early_comparisons(const kernel::kernel_plan& plan, const std::vector<harness::evidence_key>& keys,
                    const evidence_folders& folders, const validate::tolerance_overrides& tolerances,
                    compared_outputs after = compared_outputs::kept,
                    reference_tolerances whose = reference_tolerances::given);
  ~early_comparisons();
  early_comparisons(const early_comparisons&) = delete;
  early_comparisons& operator=(const early_comparisons&) = delete;

  // Stops (after the key under way) and hands over what was compared, for the verdict with
  // `final_tolerances`: nothing at all when they resolve differently from the ones compared with
  // (with compared_outputs::removed that cannot be made good: kopt::error).
  compared_keys take(const validate::tolerance_overrides& final_tolerances);

  // How many keys were compared so far.
  std::size_t compared() const { return m_compared_count; }
  // How many times it has looked for what it waits on (the reference's tolerances, the next key's
  // mark), and whether it stopped looking (every key compared, or nothing more to compare early):
  // what it has not compared after two more looks, it does not compare until the folders change.
  std::size_t looks() const { return m_looks; }
  bool done() const { return m_done; }

 private:
  void compare_as_marked();
  // Blocks until the reference's tolerances are known (true) or this stops (false).
  bool await_tolerances();
  // After the key under way, if any.
  void stop();

  const kernel::kernel_plan& m_plan;
  const std::vector<harness::evidence_key>& m_keys;
  const evidence_folders& m_folders;
  validate::tolerance_overrides m_tolerances;  // those compared with; the thread's until stop()
  const compared_outputs m_after;
  const reference_tolerances m_whose;
  compared_keys m_compared;
  std::atomic<std::size_t> m_compared_count{0};
  std::atomic<std::size_t> m_looks{0};
  std::atomic<bool> m_done{false};
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace kopt::pipeline
