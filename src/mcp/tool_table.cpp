#include "mcp/tool.h"

namespace kopt::mcp {

const std::vector<tool>& tool_table() {
  static const std::vector<tool> table = [] {
    std::vector<tool> all = static_tools();
    for (tool& t : gpu_tools()) all.push_back(std::move(t));
    return all;
  }();
  return table;
}

}  // namespace kopt::mcp
