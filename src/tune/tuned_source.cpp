#include "tune/tuned_source.h"

#include <fmt/format.h>

namespace kopt::tune {

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration) {
  std::string out = fmt::format("// kopt tune: {}\n", configuration.text());
  for (const auto& [name, value] : configuration.values) {
    out += fmt::format("#ifndef {0}\n#define {0} {1}\n#endif\n", name, value);
  }
  out += source;
  return out;
}

}  // namespace kopt::tune
