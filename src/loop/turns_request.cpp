#include "loop/turns_request.h"

#include "pipeline/measuring_child.h"

namespace kopt::loop {

bool compares_in_turns(const step_context& ctx, bool libraries_kept) {
  return ctx.services.compare && (pipeline::is_triton_backend(ctx.run.manifest.backend) || libraries_kept);
}

pipeline::comparison_request turns_request(const step_context& ctx,
                                           const pipeline::compared_version& candidate,
                                           const pipeline::compared_version& incumbent, double expected_ms) {
  pipeline::comparison_request request;
  request.target = ctx.settings.target;
  request.job = ctx.settings.job;
  request.job.backend = ctx.run.manifest.backend;
  request.candidate = candidate;
  request.incumbent = incumbent;
  request.expected_ms = expected_ms;
  request.settings = ctx.settings.comparison;
  return request;
}

}  // namespace kopt::loop
