// The tune tool: kopt tune over MCP (tune/tune_run.h), the same run folder, cache and result.
#include <string>
#include <vector>

#include "core/error.h"
#include "kernel/check_shapes.h"
#include "mcp/tool.h"
#include "pipeline/gpu_choice.h"
#include "tune/tune_run.h"
#include "tune/tune_strategy.h"

namespace kopt::mcp {
namespace {

tool_output tune(const tool_call& call) {
  tune::tune_request request;
  request.bench.target = bench_target_of(call, "kopt tune");
  request.bench.reference_timing_folder = call.services.reference_timing_folder;
  if (call.arguments.contains("max_seconds")) {
    request.bench.job.sampling.max_seconds = call.arguments["max_seconds"].get<double>();
  }
  request.strategy = call.arguments.value("strategy", std::string("exhaustive"));
  if (call.arguments.contains("budget")) request.budget = call.arguments["budget"].get<int>();
  if (call.arguments.contains("minutes")) request.minutes = call.arguments["minutes"].get<double>();
  request.seed = call.arguments.value("strategy_seed", std::uint64_t{0});
  if (call.arguments.contains("compare_seconds")) {
    request.comparison.max_seconds = call.arguments["compare_seconds"].get<double>();
  }
  request.shapes = kernel::parse_check_dims_list(string_list_argument(call.arguments, "check_dims"),
                                                 request.bench.target.dims);
  if (!call.arguments.value("fresh", false)) request.cache_folder = tune::default_tune_cache_folder();
  call.progress("each configuration built, judged and timed; then the fastest two in turns");
  request.progress = call.progress;
  const auto worker = call.services.make_worker();
  // What the user must see (a GPU left out or dropped) leads the answer's text.
  std::vector<std::string> warnings;
  request.warn = [&warnings](const std::string& what) { warnings.push_back("warning: " + what); };
  if (const std::string gpus = string_argument(call.arguments, "gpus"); !gpus.empty()) {
    const pipeline::chosen_gpus chosen = pipeline::choose_gpus(gpus, worker->probe_gpus());
    for (const std::string& line : chosen.left_out) request.warn(line);
    request.gpus = chosen.ordinals;
    request.bench.target.gpu = request.gpus.front();  // the winner's comparison runs there
    request.make_worker = call.services.make_worker;
  }
  const tune::tune_outcome outcome = tune::run_tune(request, *worker);
  std::string text;
  for (const std::string& line : warnings) text += line + "\n";
  return {text + tune::tune_text(outcome.result), tune::to_json(outcome.result)};
}

}  // namespace

tool tune_tool() {
  json properties = json{{"kernel", kernel_schema()},
                         {"ref", reference_schema()},
                         {"dims", dims_schema()},
                         {"defines", defines_schema()}};
  properties.update(json{
      {"strategy",
       json{{"type", "string"},
            {"enum", tune::tune_strategies()},
            {"description", "how the next configuration is chosen (gp, tpe: models of what was measured)"}}},
      {"budget",
       json{{"type", "integer"}, {"minimum", 1}, {"description", "configurations measured, at most"}}},
      {"minutes", json{{"type", "number"},
                       {"exclusiveMinimum", 0},
                       {"description", "start no configuration after this many minutes"}}},
      {"strategy_seed", json{{"type", "integer"},
                             {"minimum", 0},
                             {"description", "the seed of the random, gp and tpe strategies"}}},
      {"max_seconds", json{{"type", "number"}, {"description", "sampling limit per configuration [s]"}}},
      {"compare_seconds", json{{"type", "number"}, {"description", "time for the fastest two in turns [s]"}}},
      {"fresh", json{{"type", "boolean"}, {"description", "measure again what earlier tunes kept"}}},
      {"gpus", json{{"type", "string"},
                    {"description",
                     "measure configurations side by side, one per GPU: \"all\", or a list such as \"0,2\" "
                     "(only identical, idle GPUs are used)"}}},
      {"check_dims",
       json{{"type", "array"},
            {"items", json{{"type", "string"}}},
            {"description",
             "extra shapes, each tuned on its own too, as dimension flags in one string "
             "(\"--rows=1000 --cols=1000\"); the result says which configuration wins where"}}}});
  return {
      "tune",
      "Search a kernel's tune(NAME, V...) parameters (kopt inspect lists them): every allowed configuration "
      "built with its -D values (a Triton module: a copy with its @triton.autotune pinned to the values), "
      "judged against the reference and timed; the fastest two compared in turns name the winner, written "
      "into a tuned copy of the kernel. Needs a GPU.",
      input_object(properties, json::array({"kernel", "ref"})),
      tune,
      output_object(json{{"run_dir", string_schema()},
                         {"measured", array_schema(json{{"type", "object"}})},
                         {"winner", nullable(json{{"type", "object"}})}},
                    json::array({"run_dir", "measured", "winner"})),
      false};
}

}  // namespace kopt::mcp
