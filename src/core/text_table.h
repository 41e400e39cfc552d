#pragma once
// A table for the terminal: left-aligned columns separated by two spaces, each line indented by
// two (kopt inspect's buffers, kopt tune's configurations).

#include <string>
#include <vector>

namespace kopt {

std::string format_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace kopt
