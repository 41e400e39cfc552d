#include "harness/bench_job.h"

#include <initializer_list>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/enum_names.h"
#include "core/error.h"

namespace kopt::harness {
namespace {

std::vector<std::string> names_of(std::initializer_list<job_kind> kinds) {
  std::vector<std::string> names;
  for (const job_kind kind : kinds) names.emplace_back(enumerator_name(kind));
  return names;
}

}  // namespace

document_parts_table parts_of_document(const bench_job*) {
  using enum job_kind;
  return {"kind",
          "job",
          {{"validation", names_of({kernel, reference, problem})},
           {"problem_owner", names_of({problem})},
           {"profile_calls", names_of({profile})},
           {"turn_peers", names_of({blocks})},
           {"idle_peers", names_of({kernel})}}};
}

bool has_python_reference(const bench_job& job) {
  return job.reference_source.size() > 3 && job.reference_source.ends_with(".py");
}

bool has_native_reference(const bench_job& job) {
  return !job.reference_source.empty() && !has_python_reference(job);
}

const job_validation& validation_of(const bench_job& job) {
  if (!job.validation)
    throw error(fmt::format("a {} job validates nothing: this is a bug in kopt", job.kind));
  return *job.validation;
}

bool is_timed(const bench_job& job) {
  if (job.kind == job_kind::blocks) return true;
  return (job.kind == job_kind::kernel || job.kind == job_kind::reference) && job.validation &&
         job.validation->timed;
}

std::string evidence_dir_of(const bench_job& job) {
  return job.validation ? job.validation->evidence_dir : "";
}

}  // namespace kopt::harness
