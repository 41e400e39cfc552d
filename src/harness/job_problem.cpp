#include "harness/job_problem.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt::harness {
namespace {

// The reference's solve() must take the same parameters as the kernel's.
void require_same_parameters(const kernel::kernel_plan& kernel, const kernel::kernel_plan& reference,
                             const std::string& reference_path) {
  const auto& k = kernel.solve->parameters;
  const auto& r = reference.solve->parameters;
  bool same = k.size() == r.size();
  for (std::size_t i = 0; same && i < k.size(); ++i) {
    same = k[i].name == r[i].name && k[i].element == r[i].element && k[i].is_pointer == r[i].is_pointer;
  }
  if (!same) {
    throw error(fmt::format("the reference {} has a solve() whose parameters differ from the kernel's (names, types "
                            "and order must match)",
                            reference_path));
  }
}

}  // namespace

job_problem::job_problem(const bench_job& job) {
  if (!job.triton_problem.is_null()) {
    m_triton = triton_problem_from_json(job.triton_problem);
    m_kernel = plan_of(*m_triton);
    m_choice = choose_problem(m_kernel, nullptr);
    m_choice.source = m_triton->owner;
    return;
  }
  const auto backend = kernel::parse_backend_name(job.backend);
  // No flag names ({}): they only shape the errors of a dimension named like one of kopt's
  // options, and the parent planned the same dimensions with them before any child started.
  m_kernel = kernel::plan_kernel(job.kernel_source, read_text_file(job.kernel_source, "kernel file"), backend,
                                 job.dims, job.ptr_size, {}, job.defines);
  if (has_native_reference(job)) {
    m_reference =
        kernel::plan_kernel(job.reference_source, read_text_file(job.reference_source, "reference file"),
                            backend, job.dims, job.ptr_size, {}, job.defines);
    require_same_parameters(m_kernel, *m_reference, job.reference_source);
  }
  m_choice = choose_problem(m_kernel, m_reference ? &*m_reference : nullptr);
}

}  // namespace kopt::harness
