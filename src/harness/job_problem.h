#pragma once
// The problem a bench job is judged on, planned in the same way by the kernel's measuring
// process, the reference's and the parent that compares their outputs: each plans a CUDA
// problem from the sources itself, so none has to trust another's idea of the buffers; a
// Triton problem comes in the job, as the parent recorded it from setup() (triton_problem.h).

#include <optional>
#include <string>

#include "harness/bench_job.h"
#include "harness/problem_source.h"
#include "harness/triton_problem.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

class job_problem {
 public:
  // Plans the kernel and, for a native reference, the reference (or reads the job's Triton
  // problem). Throws kopt::error when the reference's solve() takes other parameters than the
  // kernel's.
  explicit job_problem(const bench_job& job);
  job_problem(const job_problem&) = delete;
  job_problem& operator=(const job_problem&) = delete;

  const kernel::kernel_plan& plan() const { return *m_choice.plan; }
  const kernel::kernel_plan& kernel_plan() const { return m_kernel; }
  // The Triton problem the plan was read from; null for CUDA.
  const triton_problem* triton() const { return m_triton ? &*m_triton : nullptr; }
  // "reference" or "kernel": whose declaration (or setup()) gave the buffers.
  const std::string& source() const { return m_choice.source; }
  // "" when kernel and reference agree; else the first difference (EXPLOITS.md #16).
  const std::string& mismatch() const { return m_choice.mismatch; }

 private:
  kernel::kernel_plan m_kernel;
  std::optional<kernel::kernel_plan> m_reference;
  std::optional<triton_problem> m_triton;
  problem_choice m_choice;
};

}  // namespace kopt::harness
