#include "tools/ncu_permission.h"

namespace kopt::tools {

bool ncu_reports_counter_permission_error(std::string_view output) {
  return output.find("ERR_NVGPUCTRPERM") != std::string_view::npos;
}

}  // namespace kopt::tools
