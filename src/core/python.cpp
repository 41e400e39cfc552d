#include "core/python.h"

#include <cstdlib>

namespace kopt {

std::string python_command() {
  if (const char* chosen = std::getenv("KOPT_PYTHON"); chosen != nullptr && *chosen != '\0') {
    return chosen;
  }
  return "python3";
}

}  // namespace kopt
