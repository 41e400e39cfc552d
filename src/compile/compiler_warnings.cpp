#include "compile/compiler_warnings.h"

#include "core/text.h"

namespace kopt::compile {
namespace {

bool is_warning_line(const std::string& line) {
  const std::string lower = to_lower(line);
  for (const char* marker : {"warning:", "warning #", "warning :"}) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

// The source line and caret nvcc and gcc print under a diagnostic.
bool is_context_line(const std::string& line) {
  return !line.empty() && (line.front() == ' ' || line.front() == '\t') && !trim(line).empty();
}

}  // namespace

std::vector<std::string> compiler_warnings(std::string_view compiler_output) {
  std::vector<std::string> warnings;
  bool in_warning = false;
  for (const std::string& line : split_lines(compiler_output)) {
    if (is_warning_line(line)) {
      warnings.push_back(line);
      in_warning = true;
    } else if (in_warning && is_context_line(line)) {
      warnings.back() += "\n" + line;
    } else {
      in_warning = false;
    }
  }
  return warnings;
}

}  // namespace kopt::compile
