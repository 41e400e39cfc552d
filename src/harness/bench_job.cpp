#include "harness/bench_job.h"

namespace kopt::harness {

bool has_python_reference(const bench_job& job) {
  return job.reference_source.size() > 3 && job.reference_source.ends_with(".py");
}

bool has_native_reference(const bench_job& job) {
  return !job.reference_source.empty() && !has_python_reference(job);
}

bool is_reference_role(const bench_job& job) { return job.role == job_role::reference; }
bool is_problem_role(const bench_job& job) { return job.role == job_role::problem; }

}  // namespace kopt::harness
