#include "loop/turns_comparison.h"

#include <optional>

#include "core/files.h"
#include "loop/work_file.h"
#include "pipeline/measuring_child.h"

namespace kopt::loop {

bool compares_in_turns(const step_context& ctx, bool libraries_kept) {
  return ctx.services.compare && (pipeline::is_triton_backend(ctx.run.manifest.backend) || libraries_kept);
}

pipeline::turns_outcome compare_versions_in_turns(const step_context& ctx,
                                                  const pipeline::compared_version& candidate,
                                                  const pipeline::compared_version& incumbent,
                                                  double expected_ms) {
  pipeline::comparison_request request;
  request.target = ctx.settings.target;
  request.job = ctx.settings.job;
  request.job.backend = ctx.run.manifest.backend;
  request.candidate = candidate;
  request.incumbent = incumbent;
  request.expected_ms = expected_ms;
  request.settings = ctx.settings.comparison;
  std::optional<work_file> candidate_copy;
  std::optional<work_file> incumbent_copy;
  if (pipeline::is_triton_backend(ctx.run.manifest.backend)) {
    candidate_copy.emplace(work_file_beside(ctx.settings.target.kernel, "turns1"),
                           read_text_file(candidate.source, "version compared in turns"));
    incumbent_copy.emplace(work_file_beside(ctx.settings.target.kernel, "turns2"),
                           read_text_file(incumbent.source, "version compared in turns"));
    request.candidate.source = candidate_copy->path();
    request.incumbent.source = incumbent_copy->path();
  }
  return ctx.services.compare(request);
}

}  // namespace kopt::loop
