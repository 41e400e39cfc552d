#include "loop/turns_comparison.h"

#include <optional>

#include "loop/work_file.h"
#include "pipeline/measuring_child.h"

namespace kopt::loop {

bool compares_in_turns(const step_context& ctx, bool libraries_kept) {
  return ctx.services.compare && (pipeline::is_triton_backend(ctx.run.manifest.backend) || libraries_kept);
}

pipeline::turns_outcome compare_versions_in_turns(const step_context& ctx, const turns_side& candidate,
                                                  const turns_side& incumbent, double expected_ms) {
  pipeline::comparison_request request;
  request.target = ctx.settings.target;
  request.job = ctx.settings.job;
  request.job.backend = ctx.run.manifest.backend;
  request.candidate = candidate.files;
  request.incumbent = incumbent.files;
  request.expected_ms = expected_ms;
  request.settings = ctx.settings.comparison;
  std::optional<work_file> candidate_copy;
  std::optional<work_file> incumbent_copy;
  if (pipeline::is_triton_backend(ctx.run.manifest.backend)) {
    candidate_copy.emplace(work_file_beside(ctx.settings.target.kernel, "turns1"), candidate.checked_text);
    incumbent_copy.emplace(work_file_beside(ctx.settings.target.kernel, "turns2"), incumbent.checked_text);
    request.candidate.source = candidate_copy->path();
    request.incumbent.source = incumbent_copy->path();
  }
  return ctx.services.compare(request);
}

}  // namespace kopt::loop
