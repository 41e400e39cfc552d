#include "tune/tune_run.h"

#include <memory>

#include <fmt/format.h>

#include "compile/compiler.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/timestamped_folder.h"
#include "env/gpu_probe.h"
#include "kernel/tune_space.h"
#include "pipeline/bench_preparation.h"
#include "tune/configured_kernel.h"
#include "tune/shape_search.h"
#include "tune/tune_strategy.h"

namespace kopt::tune {
namespace {
namespace fs = std::filesystem;

fs::path create_tune_dir(const tune_request& request) {
  const fs::path kernel = fs::absolute(request.bench.target.kernel);
  const fs::path root =
      request.runs_root.empty() ? kernel.parent_path() / "tune_runs" : fs::absolute(request.runs_root);
  return create_timestamped_folder(root, "tune", "pass --out in a folder you can write");
}

std::vector<std::string> dimension_texts(const std::vector<kernel::dimension_arg>& dims) {
  std::vector<std::string> out;
  for (const kernel::dimension_arg& d : dims) out.push_back(d.name + "=" + d.value);
  return out;
}

// The kernel's build as the bench will ask for it, less the configuration's -D values: what the
// builds ahead start from (the same request gives the same compile cache entry).
compile::compile_request kernel_build(const pipeline::bench_target& target,
                                      const env::gpu_probe_result& gpus) {
  compile::compile_request build;
  build.kernel_file = fs::absolute(target.kernel);
  build.backend = pipeline::plan_target(target).backend;
  build.defines = target.defines;
  build.arch = target.arch;
  if (const env::gpu_device* device = gpus.device(target.gpu)) build.device = device->capability;
  build.nvcc_bin = target.nvcc_bin;
  return build;
}

// `request` at an extra shape: its dimensions, and its steps named in the progress.
tune_request at_shape(const tune_request& request, const kernel::check_shape& shape) {
  tune_request r = request;
  r.bench.target.dims = shape.dims;
  if (request.progress) {
    r.progress = [&request, label = shape.label](const std::string& step) {
      request.progress(label + ": " + step);
    };
  }
  return r;
}

}  // namespace

kernel::planned_tune_space planned_space(const pipeline::bench_target& target, std::string_view source,
                                         const std::string& where) {
  const kernel::kernel_plan plan = pipeline::plan_target(target);
  kernel::planned_tune_space tune = kernel::plan_tune_space(plan, source);
  if (tune.space.empty() && plan.backend == kernel::backend::triton) {
    throw error(fmt::format(
        "{} declares no tune parameters: add # kopt: tune(NAME, V1, V2, ...) naming a constexpr of its "
        "@triton.autotune configs, num_warps, num_stages, config (the autotuner's configs by position) or a "
        "module-level integer (docs/tune.md)",
        target.kernel.string()));
  }
  if (tune.space.empty()) {
    throw error(
        fmt::format("{} declares no tune parameters: add // kopt: tune(MACRO, V1, V2, ...) for its -D macros "
                    "(docs/annotations.md)",
                    target.kernel.string()));
  }
  if (tune.allowed.empty()) {
    throw error(fmt::format("{}: the restrict() conditions leave none of the {} configurations {}",
                            target.kernel.string(), tune.space.size(), where));
  }
  return tune;
}

fs::path default_tune_cache_folder() {
  return cache_root() / "tune";
}

tune_outcome run_tune(const tune_request& request, pipeline::measuring_worker& worker) {
  const pipeline::bench_target& target = request.bench.target;
  if (target.ref.empty()) {
    throw error(
        "kopt tune judges every configuration against a reference: give --ref REF (a .py module or a .cu "
        "file)");
  }
  const std::string source = read_text_file(target.kernel, "kernel source");
  // Every shape is planned before anything is measured: a shape the restrictions empty is a
  // usage error now, not after the first shape's search.
  const kernel::planned_tune_space tune = planned_space(target, source, "at these dimensions");
  std::vector<kernel::planned_tune_space> shape_spaces;
  for (const kernel::check_shape& shape : request.shapes) {
    shape_spaces.push_back(planned_space(at_shape(request, shape).bench.target, source, "at " + shape.label));
  }
  // The strategies start before the run folder is made: one that cannot (a package missing)
  // leaves nothing behind.
  std::vector<std::unique_ptr<tune_proposer>> proposers;
  proposers.push_back(make_tune_proposer(request.strategy, tune, request.seed, request.budget));
  for (const kernel::planned_tune_space& space : shape_spaces) {
    proposers.push_back(make_tune_proposer(request.strategy, space, request.seed, request.budget));
  }
  const env::gpu_probe_result gpus = worker.probe_gpus();
  tune_outcome out{{}, create_tune_dir(request)};
  tune_result& r = out.result;
  r = tune_result{target.kernel.string(),
                  target.ref.string(),
                  out.run_dir.string(),
                  dimension_texts(target.dims),
                  request.strategy,
                  request.seed,
                  request.budget,
                  request.minutes,
                  "",
                  tune.space.size(),
                  tune.allowed.size(),
                  {},
                  std::nullopt,
                  {}};
  const fs::path result_file = out.run_dir / "tune_result.json";
  // A Triton module has nothing to build ahead: Triton compiles in the measuring process.
  const bool builds = backend_of(target, source) != kernel::backend::triton;
  configuration_prebuilds prebuilds(kernel_build(target, gpus), builds ? configuration_prebuilds::default_parallel() : 0);
  const shape_search main =
      search_shape(request, source, tune, *proposers[0], tune_cache(request, source, gpus), prebuilds,
                   out.run_dir, worker, [&](const shape_search& so_far) {
                     r.measured = so_far.measured;
                     write_json_file(result_file, to_json(r));
                   });
  r.stopped = main.stopped;
  r.measured = main.measured;
  r.winner = main.winner;
  write_json_file(result_file, to_json(r));
  for (std::size_t i = 0; i < request.shapes.size(); ++i) {
    const tune_request shape_request = at_shape(request, request.shapes[i]);
    const fs::path shape_dir = out.run_dir / fmt::format("shape_{}", i + 1);
    fs::create_directories(shape_dir);
    r.shapes.push_back(shape_result{request.shapes[i].label,
                                    dimension_texts(request.shapes[i].dims),
                                    shape_spaces[i].allowed.size(),
                                    "",
                                    {},
                                    std::nullopt});
    const shape_search s = search_shape(shape_request, source, shape_spaces[i], *proposers[i + 1],
                                        tune_cache(shape_request, source, gpus), prebuilds, shape_dir, worker,
                                        [&](const shape_search& so_far) {
                                          r.shapes.back().measured = so_far.measured;
                                          write_json_file(result_file, to_json(r));
                                        });
    r.shapes.back().stopped = s.stopped;
    r.shapes.back().measured = s.measured;
    r.shapes.back().winner = s.winner;
    write_json_file(result_file, to_json(r));
  }
  return out;
}

}  // namespace kopt::tune
