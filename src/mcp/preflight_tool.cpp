// The preflight tool: `kopt preflight` for an agent, before its first bench. Whether this machine
// is ready for a backend (GPU, driver, nvcc, ncu and its counters, Python, torch, Triton), and
// for each problem what to do, in the tools' words. It writes nothing.
#include <fmt/format.h>

#include "env/preflight.h"
#include "env/preflight_writer.h"
#include "mcp/tool.h"

namespace kopt::mcp {
namespace {

tool_output preflight(const tool_call& call) {
  env::preflight_options options;
  const std::string backend = string_argument(call.arguments, "backend");
  options.backend = kernel::parse_backend_request(backend).value_or(kernel::backend::cuda);
  options.gpu = call.arguments.value("gpu", 0);
  options.arch = string_argument(call.arguments, "arch");
  call.progress("checking the GPU, the toolkit, Nsight Compute and Python");
  const env::preflight_report report = env::run_preflight(options);
  json document = env::preflight_json(report);
  for (json& check : document["checks"]) check["fix"] = in_tool_words(check["fix"].get<std::string>());
  std::string summary = report.ready() ? "ready" : "not ready";
  for (const auto& item : report.items) {
    if (item.state == env::check_state::ok || item.state == env::check_state::skipped) continue;
    summary += fmt::format("\n{} {}: {}", item.required ? "missing" : "warning", item.name, item.value);
    if (!item.fix.empty()) summary += "; fix: " + in_tool_words(item.fix);
  }
  json checks = json::array();
  for (const json& check : document["checks"]) checks.push_back(check);
  return {summary, json{{"ready", report.ready()},
                        {"backend", document["backend"]},
                        {"gpu_ordinal", options.gpu},
                        {"checks", checks},
                        {"devices", document.value("devices", json::array())}}};
}

}  // namespace

tool preflight_tool() {
  return {"preflight",
          "Is this machine ready to compile, validate, time and profile kernels of a backend? Each check (GPU, "
          "driver, nvcc, ncu and its counters, Python, torch, Triton) with what was found and, for a problem, the "
          "fix. Call it first on a new machine. Writes nothing.",
          input_object(json{{"backend", json{{"type", "string"},
                                              {"enum", json::array({"auto", "cuda", "cutlass", "triton"})},
                                              {"description", "the backend to check for (default cuda)"}}},
                            {"gpu", json{{"type", "integer"}, {"description", "CUDA device ordinal (default 0)"}}},
                            {"arch", json{{"type", "string"}, {"description", "target to check against the GPU, e.g. sm_90a"}}}},
                       json::array()),
          preflight,
          output_object(
              json{{"ready", json{{"type", "boolean"}}},
                   {"backend", json{{"type", "string"}}},
                   {"gpu_ordinal", json{{"type", "integer"}}},
                   {"checks", json{{"type", "array"},
                                   {"items", output_object(json{{"name", json{{"type", "string"}}},
                                                                {"status", json{{"type", "string"}}},
                                                                {"required", json{{"type", "boolean"}}},
                                                                {"found", json{{"type", "string"}}},
                                                                {"fix", json{{"type", "string"}}}},
                                                           json::array({"name", "status", "required", "found", "fix"}))}}},
                   {"devices", json{{"type", "array"}}}},
              json::array({"ready", "backend", "checks"})),
          true};
}

}  // namespace kopt::mcp
