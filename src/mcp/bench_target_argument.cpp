#include <string>

#include "mcp/tool.h"

namespace kopt::mcp {

json reference_schema() {
  return json{{"type", "string"},
              {"description",
               "the reference in the workspace: a .py module with reference(**kwargs), or a .cu file "
               "with the same solve()"}};
}

pipeline::bench_target bench_target_of(const tool_call& call, const char* command) {
  pipeline::bench_target target;
  target.kernel = call.root.resolve(string_argument(call.arguments, "kernel"));
  if (const std::string ref = string_argument(call.arguments, "ref"); !ref.empty())
    target.ref = call.root.resolve(ref);
  target.dims = dimension_arguments(call.arguments);
  target.defines = string_list_argument(call.arguments, "defines");
  target.command_name = command;
  return target;
}

}  // namespace kopt::mcp
