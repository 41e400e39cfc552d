// The tools that need no GPU: inspect, compile, analyze, kb, memory_query and report.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyze/bottleneck.h"
#include "analyze/knowledge_base.h"
#include "compile/compiler.h"
#include "compile/compiler_warnings.h"
#include "compile/shell_safety.h"
#include "core/error.h"
#include "core/files.h"
#include "kernel/buffer_plan.h"
#include "kernel/tune_space.h"
#include "mcp/tool.h"
#include "memory/memory_store.h"
#include "memory/strategy_summaries.h"
#include "pipeline/analysis_pipeline.h"
#include "pipeline/compile_requests.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

tool_output inspect(const tool_call& call) {
  const fs::path kernel_file = call.root.resolve(string_argument(call.arguments, "kernel"));
  const std::vector<std::string> defines = string_list_argument(call.arguments, "defines");
  compile::check_defines(defines);
  const std::optional<kernel::backend> requested =
      kernel::parse_backend_request(string_argument(call.arguments, "backend"));
  const std::string source = read_text_file(kernel_file, "kernel file");
  const kernel::kernel_plan plan = kernel::plan_kernel(
      kernel_file, source, requested, dimension_arguments(call.arguments), std::nullopt, {}, defines);
  const kernel::planned_tune_space tune = kernel::plan_tune_space(plan, source);
  std::string summary = fmt::format("{}: backend {}", kernel_file.filename().string(), kernel::to_string(plan.backend));
  for (const auto& b : plan.buffers) {
    summary += fmt::format("\n  {} {}: {} elements, {}", kernel::to_string(b.role), b.param.name, b.elements,
                           b.param.element.name);
  }
  for (const auto& note : plan.notes) summary += "\n  note: " + note;
  if (!tune.space.empty()) {
    summary += fmt::format("\n  tune: {} configurations, {} allowed at these dimensions", tune.space.size(),
                           tune.allowed.size());
  }
  return {summary, kernel::inspect_document(plan, tune)};
}

tool_output compile_kernel(const tool_call& call) {
  const compile::compile_request request = pipeline::compile_request_of(
      {call.root.resolve(string_argument(call.arguments, "kernel")), std::nullopt,
       string_list_argument(call.arguments, "defines"), string_argument(call.arguments, "arch"), 0, ""});
  call.progress("compiling with nvcc");
  const compile::compile_result r = compile::compile_kernel(request);
  if (!r.ok()) {
    throw error(fmt::format("compile failed: {}", r.failure_reason),
                r.compiler_output.size() > 4000 ? r.compiler_output.substr(0, 4000) + "\n..." : r.compiler_output);
  }
  json kernels = json::array();
  const bool cached = r.status == compile::compile_status::cache_hit;
  // A cache hit ran no nvcc now: it says so, not the original build's time as if it were this one's.
  std::string summary = cached ? fmt::format("from the compile cache, built earlier for {} (nvcc took {:.1f} s then)",
                                             r.arch.name, r.build_seconds)
                               : fmt::format("built for {} in {:.1f} s", r.arch.name, r.build_seconds);
  for (const auto& k : r.kernels) {
    kernels.push_back(compile::to_json(k));
    summary += fmt::format("\n  {}: {} registers, {} B shared, {} B spilled", k.name, k.registers, k.static_shared_bytes,
                           k.spill_store_bytes);
  }
  const std::vector<std::string> warnings = compile::compiler_warnings(r.compiler_output);
  if (!warnings.empty()) summary += fmt::format("\nnvcc warned:\n{}", fmt::join(warnings, "\n"));
  return {summary, json{{"library", r.library.string()},
                        {"arch", r.arch.name},
                        {"from_cache", cached},
                        {"build_seconds", r.build_seconds},
                        {"warnings", warnings},
                        {"kernels", kernels}}};
}

tool_output analyze(const tool_call& call) {
  pipeline::analysis_request request;
  request.report = call.root.resolve(string_argument(call.arguments, "report"));
  if (const std::string details = string_argument(call.arguments, "details"); !details.empty()) {
    request.details = call.root.resolve(details);
  }
  if (const std::string backend = string_argument(call.arguments, "backend"); !backend.empty()) request.backend = backend;
  const pipeline::analysis_outcome outcome = pipeline::run_analysis(request);
  json kernels = json::array();
  std::string summary;
  for (const auto& k : outcome.analysis.kernels) {
    json first = json::array();
    for (std::size_t i = 0; i < std::min<std::size_t>(3, k.recommendations.size()); ++i) {
      const auto& r = k.recommendations[i];
      first.push_back(json{{"id", r.id}, {"title", r.title}, {"tags", r.tags}});
    }
    kernels.push_back(json{{"launch_id", k.launch_id},
                           {"kernel", k.kernel_name},
                           {"class", analyze::to_string(k.verdict.cls)},
                           {"at_hardware_limit", k.verdict.at_hardware_limit},
                           {"reason", k.verdict.reason},
                           {"duration_ns", k.launch.duration_ns ? json(*k.launch.duration_ns) : json(nullptr)},
                           {"recommendations", first}});
    if (summary.size() < 4000) {
      summary += fmt::format("{}[{}] {}: {}{} — {}\n", summary.empty() ? "" : "", k.launch_id, k.kernel_name,
                             analyze::to_string(k.verdict.cls), k.verdict.at_hardware_limit ? " (at hardware limit)" : "",
                             k.verdict.reason);
      if (!k.recommendations.empty()) summary += fmt::format("  first to try: {} ({})\n", k.recommendations[0].title,
                                                             k.recommendations[0].id);
    }
  }
  summary += fmt::format("wrote {} and {}", outcome.markdown_file.string(), outcome.json_file.string());
  json structured{{"markdown_file", outcome.markdown_file.string()}, {"json_file", outcome.json_file.string()},
                  {"kernels", kernels}};
  if (string_argument(call.arguments, "detail") == "full") structured["analysis"] = outcome.document;
  return {summary, structured};
}

tool_output kb(const tool_call& call) {
  const std::string action = string_argument(call.arguments, "action");
  const std::string backend_name = string_argument(call.arguments, "backend");
  const std::string backend = backend_name.empty() ? "" : analyze::knowledge_backend_named(backend_name);
  std::vector<const analyze::kb_entry*> entries;
  if (action == "show") {
    const std::string id = string_argument(call.arguments, "id");
    const analyze::kb_entry* e = analyze::find_kb_entry(id);
    if (e == nullptr) throw error(fmt::format("no knowledge-base entry \"{}\": call kb with action list for the ids", id));
    entries.push_back(e);
  } else if (action == "match") {
    const std::string cls = string_argument(call.arguments, "class");
    if (cls.empty()) throw error("kb match needs 'class': the bottleneck class analyze gave (launch, occupancy, ...)");
    // The backend as given, else the kernel's (as inspect infers it), else every backend's entries.
    std::string matched = backend;
    if (matched.empty()) {
      if (const std::string kernel = string_argument(call.arguments, "kernel"); !kernel.empty()) {
        const fs::path kernel_file = call.root.resolve(kernel);
        matched = std::string(kernel::to_string(
            kernel::infer_backend(kernel_file, read_text_file(kernel_file, "kernel file"), std::nullopt)));
      }
    }
    const analyze::bottleneck b = analyze::bottleneck_named(cls);
    if (!matched.empty()) {
      entries = analyze::kb_entries_for(analyze::knowledge_backend_named(matched), b);
    } else {
      for (const std::string& each : analyze::knowledge_backends()) {
        for (const auto* e : analyze::kb_entries_for(each, b)) entries.push_back(e);
      }
    }
  } else {
    for (const auto& e : analyze::knowledge_base()) {
      if (backend.empty() || e.backend == backend) entries.push_back(&e);
    }
  }
  json list = json::array();
  std::string summary;
  for (const auto* e : entries) {
    list.push_back(action == "show" ? analyze::to_json(*e)
                                    : json{{"id", e->id}, {"backend", e->backend}, {"title", e->title}, {"tags", e->tags}});
    summary += fmt::format("{}: {}\n", e->id, e->title);
  }
  if (action == "show" && !entries.empty()) summary += fmt::format("change: {}\nverify: {}", entries[0]->change, entries[0]->verify);
  return {summary, json{{"entries", list}}};
}

tool_output memory_query(const tool_call& call) {
  analyze::bottleneck_named(string_argument(call.arguments, "class"));  // an unknown class is refused by name
  const memory::memory_store store = memory::memory_store::open(memory::default_memory_path(std::nullopt));
  auto list = store.summarize({string_argument(call.arguments, "backend"), string_argument(call.arguments, "class"),
                               string_argument(call.arguments, "arch")});
  memory::rank_by_success(list);
  json strategies = json::array();
  std::string summary = list.empty() ? "nothing recorded yet for this bottleneck and backend" : "";
  for (const auto& s : list) {
    strategies.push_back(to_document(s));
    summary += fmt::format("{} [{}]: {} positive, {} negative, {} rejected\n", s.fingerprint, fmt::join(s.tags, ", "),
                           s.positive, s.negative, s.rejected);
  }
  return {summary, json{{"memory", store.shown_name()}, {"strategies", strategies}}};
}

json class_schema(const char* description) {
  json names = json::array();
  for (const auto b : analyze::all_bottlenecks()) names.push_back(std::string(analyze::to_string(b)));
  return json{{"type", "string"}, {"enum", names}, {"description", description}};
}

}  // namespace

std::vector<tool> static_tools() {
  const json backend = json{{"type", "string"}, {"enum", json::array({"auto", "cuda", "cutlass", "triton"})}};
  const json kb_entry_schema = output_object(
      json{{"id", string_schema()}, {"backend", string_schema()}, {"title", string_schema()}, {"tags", array_schema(string_schema())}},
      json::array({"id", "title"}));
  return {
      {"inspect",
       "What kopt will do with a kernel file: backend, solve()'s parameters, roles and buffer sizes. No GPU needed.",
       input_object(json{{"kernel", kernel_schema()}, {"dims", dims_schema()}, {"defines", defines_schema()},
                          {"backend", backend}},
                     json::array({"kernel"})),
       inspect,
       output_object(json{{"file", string_schema()},
                          {"backend", string_schema()},
                          {"backend_reason", string_schema()},
                          {"solve", json{{"type", json::array({"object", "null"})}}},
                          {"dimensions", json{{"type", "object"}}},
                          {"has_annotation", json{{"type", "boolean"}}},
                          {"total_bytes", json{{"type", "integer"}}},
                          {"notes", array_schema(string_schema())}},
                     json::array({"file", "backend", "solve", "dimensions", "total_bytes", "notes"})),
       true},
      {"compile",
       "Build a .cu kernel with nvcc (cached) and report each kernel's registers, shared memory and spills, and nvcc's "
       "warnings. No GPU needed.",
       input_object(json{{"kernel", kernel_schema()}, {"defines", defines_schema()},
                          {"arch", json{{"type", "string"}, {"description", "sm_90a, ... (default: the GPU's)"}}}},
                     json::array({"kernel"})),
       compile_kernel,
       output_object(json{{"library", string_schema()},
                          {"arch", string_schema()},
                          {"from_cache", json{{"type", "boolean"}, {"description", "served from the compile cache: no nvcc ran now"}}},
                          {"build_seconds", json{{"type", "number"}, {"description", "[s] nvcc's run when it was built"}}},
                          {"warnings", array_schema(string_schema())},
                          {"kernels", array_schema(json{{"type", "object"}})}},
                     json::array({"library", "arch", "from_cache", "warnings", "kernels"})),
       true},
      {"analyze",
       "Diagnose an Nsight Compute report (.ncu-rep or its raw CSV, e.g. a profile's ncu_raw.csv): each launch's "
       "bottleneck class with its reason and the first strategies to try; writes the markdown and JSON analysis "
       "beside the report.",
       input_object(json{{"report", json{{"type", "string"}, {"description", "a .ncu-rep or raw CSV in the workspace"}}},
                          {"details", json{{"type", "string"}, {"description", "the details page (default: beside it)"}}},
                          {"backend", backend},
                          {"detail", detail_schema()}},
                     json::array({"report"})),
       analyze,
       output_object(json{{"markdown_file", string_schema()},
                          {"json_file", string_schema()},
                          {"kernels", array_schema(output_object(json{{"launch_id", string_schema()},
                                                                      {"kernel", string_schema()},
                                                                      {"class", string_schema()},
                                                                      {"reason", string_schema()},
                                                                      {"recommendations", array_schema(kb_entry_schema)}},
                                                                 json::array({"kernel", "class", "reason"})))},
                          {"analysis", json{{"type", "object"}, {"description", "the whole analysis (detail: full)"}}}},
                     json::array({"markdown_file", "json_file", "kernels"})),
       false},
      {"kb",
       "The knowledge base of optimization strategies: list (a backend's), show (one entry: what to change, how to "
       "verify), match (the entries for a bottleneck class: for the backend given, else the kernel's, else every "
       "backend's).",
       input_object(json{{"action", json{{"type", "string"}, {"enum", json::array({"list", "show", "match"})}}},
                          {"id", json{{"type", "string"}, {"description", "show: the entry's id"}}},
                          {"class", class_schema("match: the bottleneck class analyze gave")},
                          {"backend", backend},
                          {"kernel", json{{"type", "string"},
                                          {"description", "match without backend: a kernel file whose backend to use"}}}},
                     json::array({"action"})),
       kb,
       output_object(json{{"entries", array_schema(json{{"type", "object"}})}}, json::array({"entries"})),
       true},
      {"memory_query",
       "What the strategy memory says worked for a bottleneck class on a backend, best first (from every kernel kopt "
       "loop has seen).",
       input_object(json{{"backend", backend},
                          {"class", class_schema("the bottleneck class analyze gave")},
                          {"arch", json{{"type", "string"}}}},
                     json::array({"backend", "class"})),
       memory_query,
       output_object(json{{"memory", string_schema()}, {"strategies", array_schema(json{{"type", "object"}})}},
                     json::array({"memory", "strategies"})),
       true},
      report_tool(),
      preflight_tool(),
  };
}

}  // namespace kopt::mcp
