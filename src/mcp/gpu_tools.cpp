// The tools that need a GPU: bench, compare, profile and loop_step (and tune, tune_tool.cpp). Each runs the
// same pipeline as the command of its name, through measuring children (whose output never reaches the
// protocol channel), and a cancelled call kills its child.
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/document.h"
#include "core/document_schema.h"
#include "core/error.h"
#include "kernel/check_shapes.h"
#include "loop/final_confirmation.h"
#include "loop/loop_step.h"
#include "loop/run_manifest.h"
#include "mcp/tool.h"
#include "memory/memory_store.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/bench_text.h"
#include "pipeline/comparison_pipeline.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/profile_pipeline.h"
#include "tune/tune_strategy.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

tool_output bench(const tool_call& call) {
  pipeline::bench_request request;
  request.target = bench_target_of(call, "kopt bench");
  request.job.sampling.hot = call.arguments.value("hot", false);
  if (call.arguments.contains("min_seconds"))
    request.job.sampling.min_seconds = call.arguments["min_seconds"].get<double>();
  if (call.arguments.contains("max_seconds")) request.job.sampling.max_seconds = call.arguments["max_seconds"].get<double>();
  if (call.arguments.contains("seed")) request.job.seed = call.arguments["seed"].get<std::uint64_t>();
  if (call.arguments.contains("atol")) request.atol = call.arguments["atol"].get<double>();
  if (call.arguments.contains("rtol")) request.rtol = call.arguments["rtol"].get<double>();
  request.reference_timing_folder =
      call.arguments.value("fresh_reference", false) ? std::nullopt : call.services.reference_timing_folder;
  call.progress("building, validating against the reference and timing");
  request.progress = call.progress;
  const auto worker = call.services.make_worker();
  const pipeline::bench_outcome outcome = pipeline::run_bench(request, *worker);
  if (outcome.prepared.failed_build) {
    throw error(fmt::format("compile failed: {}", outcome.prepared.failed_build->result.failure_reason),
                outcome.prepared.failed_build->result.compiler_output.substr(0, 4000));
  }
  const pipeline::bench_result& r = outcome.result;
  // The text kopt bench prints, by the same printer.
  std::string summary =
      (r.ok() ? "passed\n" : fmt::format("{}: {}\n", enum_name(r.status), r.reason)) + pipeline::bench_text(r);
  if (r.kernel_output) summary += "the kernel's process printed:\n" + pipeline::printed_output_text(*r.kernel_output);
  json structured{{"status", enum_name(r.status)},
                  {"reason", r.reason},
                  {"protocol", r.protocol},
                  {"kernel_ms", r.kernel ? json(r.kernel->headline_ms()) : json(nullptr)},
                  {"kernel_ci95_ms", r.kernel ? to_document(r.kernel->median_ci95_ms) : json(nullptr)},
                  {"reference_ms", r.reference ? json(r.reference->headline_ms()) : json(nullptr)},
                  {"speedup_vs_reference", json_or_null(r.speedup_vs_reference)},
                  {"kernel_vs_reference", to_document(r.kernel_vs_reference)},
                  {"warnings", r.warnings},
                  {"gpu", r.gpu_name},
                  {"kernel_output", r.kernel_output ? to_document(*r.kernel_output) : json(nullptr)}};
  if (string_argument(call.arguments, "detail") == "full") structured["result"] = outcome.document;
  return {summary, structured};
}

tool_output profile(const tool_call& call) {
  pipeline::profile_request request;
  request.target = bench_target_of(call, "kopt profile");
  request.target.gpu_purpose = "profile on";
  if (const std::string out = string_argument(call.arguments, "out"); !out.empty()) request.out = call.root.resolve(out);
  call.progress("profiling with Nsight Compute (one --set full pass)");
  const auto worker = call.services.make_worker();
  const pipeline::profile_outcome outcome = pipeline::run_profile(request, *worker, {});
  if (outcome.prepared.failed_build) {
    throw error(fmt::format("compile failed: {}", outcome.prepared.failed_build->result.failure_reason));
  }
  if (outcome.failure) throw error(fmt::format("profile failed: {}", outcome.failure->headline), outcome.failure->detail);
  json kernels = json::array();
  std::string summary = fmt::format("profiled {} launch(es) into {}:\n", outcome.record.kernels.size(), outcome.out.string());
  for (const auto& k : outcome.record.kernels) {
    kernels.push_back(k.name);
    summary += "  " + k.name + "\n";
  }
  summary += fmt::format("next: analyze {}", (outcome.out / "ncu_raw.csv").string());
  return {summary, json{{"out", outcome.out.string()}, {"files", outcome.record.files}, {"kernels", kernels}}};
}

tool_output compare(const tool_call& call) {
  pipeline::file_comparison_request request;
  request.target.dims = dimension_arguments(call.arguments);
  request.target.defines = string_list_argument(call.arguments, "defines");
  request.target.command_name = "kopt compare";
  request.baseline = call.root.resolve(string_argument(call.arguments, "baseline"));
  request.candidate = call.root.resolve(string_argument(call.arguments, "candidate"));
  if (call.arguments.contains("ref"))
    request.target.ref = call.root.resolve(string_argument(call.arguments, "ref"));
  request.job.sampling.hot = call.arguments.value("hot", false);
  if (call.arguments.contains("max_seconds")) request.settings.max_seconds = call.arguments["max_seconds"].get<double>();
  call.progress("preparing both versions, then timing them in turns");
  const auto worker = call.services.make_worker();
  const pipeline::file_comparison compared = pipeline::compare_files(request, *worker);
  if (compared.failed_build) {
    throw error(fmt::format("compile failed: {}: {}", compared.failed_build->file,
                            compared.failed_build->result.failure_reason),
                compared.failed_build->result.compiler_output.substr(0, 4000));
  }
  const pipeline::turns_outcome& o = compared.turns;
  if (!o.failure.empty()) throw error("failed while timed in turns: " + o.failure);
  const measure::outcome_evidence& e = o.evidence;
  const std::string summary = fmt::format(
      "{} ({}): candidate/baseline {:.4f}x the time, 95 % interval [{:.4f}, {:.4f}], margin ±{:.1f} %; medians "
      "candidate {:.6g} ms, baseline {:.6g} ms; {} rounds of {} calls in {:.1f} s (only timed: bench validates)",
      measure::to_string(e.verdict), o.stop, e.ratio, e.ratio_ci95.low, e.ratio_ci95.high, 100 * e.margin,
      e.candidate_median_ms, e.incumbent_median_ms, o.rounds, o.block_calls, o.seconds);
  return {summary, pipeline::summary_json(o)};
}

// The run folders a new run may have been made in (optimize_runs/ beside the kernel), as they are now.
std::set<fs::path> run_folders_beside(const fs::path& kernel) {
  std::set<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(kernel.parent_path() / "optimize_runs", ec), end; !ec && it != end; it.increment(ec)) {
    found.insert(it->path());
  }
  return found;
}

// A failed call leaves no run behind: a folder this call made that holds no committed iteration
// (at most its preflight check) is removed. Returns the folders removed.
std::vector<fs::path> remove_runs_left_by(const fs::path& kernel, const std::set<fs::path>& before) {
  std::vector<fs::path> removed;
  for (const fs::path& folder : run_folders_beside(kernel)) {
    if (before.count(folder) != 0) continue;
    bool committed = false;
    try {
      committed = fs::exists(folder / loop::run_manifest_name) && !loop::read_run_manifest(folder).iterations.empty();
    } catch (const error&) {
      committed = false;
    }
    std::error_code ec;
    if (!committed && fs::remove_all(folder, ec) > 0 && !ec) removed.push_back(folder);
  }
  return removed;
}

// loop_step's tune, tune_budget and tune_strategy, checked as kopt loop checks its --tune options.
std::optional<loop::loop_tuning> tuning_of(const json& arguments) {
  const bool tune = arguments.value("tune", false);
  if (!tune && (arguments.contains("tune_budget") || arguments.contains("tune_strategy"))) {
    throw error("tune_budget and tune_strategy need tune: true (docs/tune.md)");
  }
  if (!tune) return std::nullopt;
  loop::loop_tuning tuning;
  tuning.budget = arguments.value("tune_budget", tuning.budget);
  tuning.strategy = arguments.value("tune_strategy", tuning.strategy);
  tune::check_tune_strategy(tuning.strategy, "tune_strategy");
  return tuning;
}

tool_output loop_step(const tool_call& call) {
  loop::loop_settings settings;
  settings.target = bench_target_of(call, "kopt loop");
  settings.max_iterations = call.arguments.at("max_iterations").get<std::int64_t>();
  if (const std::string run_dir = string_argument(call.arguments, "run_dir"); !run_dir.empty()) {
    settings.run_dir = call.root.resolve(run_dir);
  }
  if (call.arguments.contains("iteration")) settings.iteration = call.arguments.at("iteration").get<std::int64_t>();
  if (const std::string file = string_argument(call.arguments, "global_memory_file"); !file.empty()) {
    settings.global_memory_file = call.root.resolve(file);
  }
  settings.memory_db = memory::default_memory_path(std::nullopt);
  settings.check_shapes =
      kernel::parse_check_dims_list(string_list_argument(call.arguments, "check_dims"), settings.target.dims);
  settings.tune = tuning_of(call.arguments);
  const auto worker = call.services.make_worker();
  const loop::loop_services services = loop::gpu_services(*worker);
  const std::set<fs::path> before = settings.run_dir.empty() ? run_folders_beside(settings.target.kernel) : std::set<fs::path>{};
  const fs::path runs_folder = settings.target.kernel.parent_path() / "optimize_runs";
  std::error_code no_folder;
  const bool had_runs_folder = fs::exists(runs_folder, no_folder);
  std::optional<loop::step_outcome> stepped;
  try {
    stepped = loop::run_loop_step(settings, services, call.progress);
  } catch (const error& e) {
    if (!settings.run_dir.empty()) throw;
    const std::vector<fs::path> removed = remove_runs_left_by(settings.target.kernel, before);
    if (removed.empty()) throw;
    std::error_code ec;
    if (!had_runs_folder) fs::remove(runs_folder, ec);  // only when empty: the one run was this call's
    // The message may point into the folder that is gone (its preflight_check.md).
    std::string headline = e.headline();
    if (const std::size_t see = headline.find(" (see " + removed.front().string()); see != std::string::npos) {
      headline = headline.substr(0, see) + " (the preflight tool shows every check)";
    }
    throw error(headline, fmt::format("{}nothing was recorded: the run folder {} was removed",
                                      e.detail().empty() ? "" : e.detail() + "\n", removed.front().string()));
  }
  loop::step_outcome& step = *stepped;
  std::optional<loop::confirmed_run> confirmed;
  if (loop::ends_the_run(step)) {  // the run's answer: its best confirmed
    settings.run_dir = step.run_dir;
    confirmed = loop::finish_run(settings, services, call.progress);
    step.manifest = confirmed->manifest;
  }
  if (!step.record) return {fmt::format("preflight passed; run folder {}", step.run_dir.string()), json{{"run_dir", step.run_dir.string()}}};
  const loop::iteration_record& r = *step.record;
  std::string summary = fmt::format("v{}: {} ({})", r.iteration, r.outcome, r.reason);
  if (r.median_ms) summary += fmt::format("\nkernel {:.4f} ms", *r.median_ms);
  if (!r.bottleneck.empty()) summary += fmt::format("; bottleneck {}{}", r.bottleneck, r.at_hardware_limit ? " (at hardware limit)" : "");
  const fs::path proposal = step.run_dir / fmt::format("iter_v{}", r.iteration) / "optimization_proposal.md";
  summary += fmt::format("\nrun folder {}\nnext: write the next version, fill the tags of {}, call loop_step again with "
                         "run_dir",
                         step.run_dir.string(), proposal.string());
  if (confirmed) {
    const loop::confirmation_attempt* a = confirmed->confirmation.confirmed_attempt();
    if (!confirmed->kernel_file.empty()) summary += "\n" + confirmed->kernel_file;
    summary += a ? fmt::format("\nthe run is complete; best confirmed: v{} at {:.6g} ms, {}: {}", a->iteration,
                               a->median_ms.value_or(0),
                               loop::confirmed_speedups(*a, confirmed->confirmation.baseline), a->reason)
                 : fmt::format("\nthe run is complete; no confirmed best ({})",
                               enum_name(confirmed->confirmation.verdict));
    if (a && a->speed_of_light) summary += "\nit runs " + measure::speed_of_light_line(*a->speed_of_light);
  }
  for (const std::string& notice : step.notices) summary += "\nnote: " + notice;
  return {summary, json{{"run_dir", step.run_dir.string()},
                        {"confirmation", confirmed ? to_document(confirmed->confirmation) : json(nullptr)},
                        {"iteration", r.iteration},
                        {"outcome", enum_name(r.outcome)},
                        {"reason", r.reason},
                        {"median_ms", r.median_ms ? json(*r.median_ms) : json(nullptr)},
                        {"best", step.manifest.best ? json(*step.manifest.best) : json(nullptr)},
                        {"bottleneck", r.bottleneck},
                        {"proposal", proposal.string()},
                        {"notices", step.notices}}};
}

}  // namespace

std::vector<tool> gpu_tools() {
  const json common_properties = json{{"kernel", kernel_schema()}, {"ref", reference_schema()}, {"dims", dims_schema()},
                                      {"defines", defines_schema()}};
  json bench_properties = common_properties;
  bench_properties.update(
      json{{"hot", json{{"type", "boolean"}, {"description", "keep L2 warm (default: flushed)"}}},
           {"min_seconds", json{{"type", "number"}, {"description", "sampling time, at least [s]"}}},
           {"max_seconds", json{{"type", "number"}, {"description", "sampling limit [s]"}}},
           {"seed", json{{"type", "integer"}}},
           {"atol", json{{"type", "number"}}},
           {"rtol", json{{"type", "number"}}},
           {"fresh_reference", json{{"type", "boolean"},
                                    {"description",
                                     "time the reference now, not from the timing kept from an "
                                     "earlier run of the same problem"}}},
           {"detail", detail_schema()}});
  json profile_properties = common_properties;
  profile_properties["out"] = json{{"type", "string"}, {"description", "output folder in the workspace"}};
  json loop_properties = common_properties;
  loop_properties.update(
      json{{"max_iterations", json{{"type", "integer"}, {"description", "iterations after v0"}}},
           {"run_dir", json{{"type", "string"}, {"description", "the run folder to continue"}}},
           {"iteration", json{{"type", "integer"},
                              {"minimum", 0},
                              {"description", "the iteration this call evaluates: the run's next, or its last to redo "
                                              "it (the earlier attempt is kept, superseded)"}}},
           {"global_memory_file", json{{"type", "string"},
                                       {"description", "the Python toolkit's global_strategy_memory.json to import "
                                                       "when the run starts"}}},
           {"check_dims", json{{"type", "array"},
                               {"items", json{{"type", "string"}}},
                               {"description",
                                "extra shapes every version must also pass the judge at, each as "
                                "dimension flags in one string (\"--rows=1000 --cols=1000\"); "
                                "frozen for the run"}}},
           {"tune", json{{"type", "boolean"},
                         {"description", "tune the version first when it declares tune(...) parameters, and judge it "
                                         "at the winning values (the tune tool's search, in the iteration's folder)"}}},
           {"tune_budget", json{{"type", "integer"},
                                {"minimum", 1},
                                {"description", "with tune: configurations measured, at most (default 16)"}}},
           {"tune_strategy", json{{"type", "string"},
                                  {"enum", tune::tune_strategies()},
                                  {"description", "with tune: how the next configuration is chosen (default random)"}}}});
  json compare_properties = json{
      {"baseline",
       json{{"type", "string"},
            {"description", "the version to compare against: a .cu or Triton .py file in the workspace"}}},
      {"ref",
       json{{"type", "string"},
            {"description",
             "a Triton kernel's reference module in the workspace, when its setup() makes the problem"}}},
      {"candidate",
       json{{"type", "string"}, {"description", "the new version, with the same solve() signature"}}},
      {"dims", dims_schema()},
      {"defines", defines_schema()},
      {"hot", json{{"type", "boolean"}, {"description", "keep L2 warm (default: flushed)"}}},
      {"max_seconds",
       json{{"type", "number"}, {"description", "time for the rounds [s], then inconclusive"}}}};
  return {
      {"compare",
       "Is the candidate faster than the baseline? Both CUDA/CUTLASS versions are built, held open in their "
       "own measuring processes and timed in turns until the 95 % interval of the median ratio says "
       "positive, negative or neutral (or inconclusive at the budget). Only timing: bench validates. Needs "
       "a GPU.",
       input_object(compare_properties, json::array({"baseline", "candidate"})), compare,
       json_schema_of<pipeline::comparison_summary>("kopt compare's outcome and how it was measured"), true},
      {"bench",
       "Validate a kernel against its reference, then time both from the GPU's timestamps, under a judge "
       "that catches "
       "cheating kernels: status, medians with intervals, the speedup with its verdict, warnings. Needs a "
       "GPU.",
       input_object(bench_properties, json::array({"kernel"})), bench,
       output_object(json{{"status", string_schema()},
                          {"reason", string_schema()},
                          {"protocol", string_schema()},
                          {"kernel_ms", nullable(number_schema())},
                          {"kernel_ci95_ms", nullable(array_schema(number_schema()))},
                          {"reference_ms", nullable(number_schema())},
                          {"speedup_vs_reference", nullable(number_schema())},
                          {"kernel_vs_reference", nullable(json{{"type", "object"}})},
                          {"warnings", array_schema(string_schema())},
                          {"gpu", string_schema()},
                          {"kernel_output", nullable(json{{"type", "object"},
                                                          {"description",
                                                           "what the kernel's process printed (its "
                                                           "printf), the last 32 KiB of each stream"}})},
                          {"result", json{{"type", "object"},
                                          {"description", "the whole bench result (detail: full)"}}}},
                     json::array({"status", "reason", "kernel_ms", "reference_ms", "warnings"})),
       true},
      {"profile",
       "One Nsight Compute pass (--set full) over exactly the kernel's launches; writes the report and its "
       "CSV pages "
       "(then call analyze on ncu_raw.csv). Needs a GPU and ncu.",
       input_object(profile_properties, json::array({"kernel"})), profile,
       output_object(json{{"out", string_schema()},
                          {"files", array_schema(string_schema())},
                          {"kernels", array_schema(string_schema())}},
                     json::array({"out", "files", "kernels"})),
       false},
      {"loop_step",
       "One iteration of the optimization loop on the kernel file as it is now: judge, time, profile, "
       "diagnose, compare with the best version, record the strategy; writes the next "
       "optimization_proposal.md. Needs a GPU.",
       input_object(loop_properties, json::array({"kernel", "max_iterations"})), loop_step,
       output_object(json{{"run_dir", string_schema()},
                          {"iteration", json{{"type", "integer"}}},
                          {"outcome", string_schema()},
                          {"reason", string_schema()},
                          {"median_ms", nullable(number_schema())},
                          {"best", nullable(json{{"type", "integer"}})},
                          {"bottleneck", string_schema()},
                          {"proposal", string_schema()},
                          {"notices", array_schema(string_schema())},
                          {"confirmation", nullable(json{{"type", "object"},
                                                         {"description",
                                                          "the final confirmation, at the run's last "
                                                          "iteration (confirmation.json)"}})}},
                     json::array({"run_dir"})),
       false},
      tune_tool(),
  };
}

}  // namespace kopt::mcp
