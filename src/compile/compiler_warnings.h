#pragma once
// The warnings in a build's output (nvcc's front end, the host compiler, ptxas), each with the
// lines that show where: what a person or an agent must see of an output that is otherwise
// ptxas' resource report.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::compile {

// Pure: every diagnostic line of `compiler_output` that is a warning ("k.cu(12): warning #177-D:
// ...", "k.cu:3:5: warning: ...", "ptxas warning : ..."), joined with the indented or caret
// lines that follow it, in order.
std::vector<std::string> compiler_warnings(std::string_view compiler_output);

}  // namespace kopt::compile
