#pragma once
// What kopt's MCP server offers: one tool per command an agent needs, each with a JSON Schema
// for its arguments and a result that fits an agent's context: a few lines of text first, the
// compact facts as structured content, and the whole document only when asked
// ("detail": "full"); never a raw ncu dump. A tool's failure (a kernel that does not build, a
// file that is not a report) throws kopt::error and becomes a result marked isError with its
// one-line reason.

#include <functional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "kernel/dimensions.h"
#include "mcp/workspace.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/services.h"

namespace kopt::mcp {

struct tool_call {
  const json& arguments;
  const workspace& root;
  // How a tool gets its measuring worker and where reference timings are kept: made once by the
  // server's front end (the process worker; a recorded one in tests).
  const pipeline::services& services;
  // Progress for the client (a no-op when it gave no progress token): what is being done now.
  std::function<void(const std::string& message)> progress;
};

struct tool_output {
  std::string summary;  // the text content
  json structured;      // structuredContent
};

struct tool {
  std::string name;
  std::string description;
  json input_schema;
  std::function<tool_output(const tool_call&)> run;
  json output_schema;      // outputSchema: what structuredContent holds when the call succeeds
  bool read_only = false;  // annotations.readOnlyHint: changes nothing in the workspace (kopt's caches aside)
};

// Every tool, in the order tools/list gives them.
const std::vector<tool>& tool_table();

// The tools in two groups (tool_table joins them): those that need no GPU, and those that do.
std::vector<tool> static_tools();
std::vector<tool> gpu_tools();
tool report_tool();     // one of the static tools (report_tool.cpp)
tool preflight_tool();  // one of the static tools (preflight_tool.cpp)
tool tune_tool();       // one of the GPU tools (tune_tool.cpp)

// The kernel, reference, dimensions and definitions a measuring tool was given, as the target of
// the command of its name ("kopt bench"), its paths resolved in the workspace.
pipeline::bench_target bench_target_of(const tool_call& call, const char* command);
// The "ref" argument's schema.
json reference_schema();

// "" when `arguments` fits `schema` (the subset of JSON Schema the tools use: object, type,
// required, enum, properties, additionalProperties: false, items); else the first problem
// ("'kernel' is required", "'hot' must be a boolean").
std::string argument_problem(const json& schema, const json& arguments);

// Argument readers for the handlers: a string (or "" when absent), the dimensions object as
// --NAME=VALUE pairs, a list of strings.
std::string string_argument(const json& arguments, const char* name);
std::vector<kernel::dimension_arg> dimension_arguments(const json& arguments);
std::vector<std::string> string_list_argument(const json& arguments, const char* name);

// `text` (a tool's answer or failure) with the fixes kopt's commands phrase as their flags
// phrased as the tools' arguments: `--N=VALUE` and `--dim N=4` as dims {"N": ...}, `--arch=sm_90a`
// as "arch": "sm_90a", `kopt bench` as the bench tool, and `--ncu-bin`/`--nvcc-bin`, which no
// tool takes, as the PATH kopt mcp was started with (tool_words.cpp).
std::string in_tool_words(const std::string& text);

// An output schema: an object with these properties, of which `required` are always present.
json output_object(json properties, json required);

// An input schema: an object with these properties and no others, of which `required` must be
// given (argument_problem refuses any other).
json input_object(json properties, json required);

// The schema pieces the tools share.
json kernel_schema();      // {"type": "string", ...}: a kernel file in the workspace
json dims_schema();        // {"NAME": value, ...}
json defines_schema();     // ["NAME=VALUE", ...]
json detail_schema();      // "summary" or "full"
json string_schema();      // {"type": "string"}
json number_schema();      // {"type": "number"}
json array_schema(json items = json::object());  // {"type": "array", "items": items}
json nullable(json schema);                      // the schema's type, or null

}  // namespace kopt::mcp
