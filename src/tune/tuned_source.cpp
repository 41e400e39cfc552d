#include "tune/tuned_source.h"

#include <fmt/format.h>

#include "core/text.h"
#include "tune/triton_pin_py.h"

namespace kopt::tune {
namespace {

std::string pinned_module(std::string_view source, const kernel::tune_configuration& configuration) {
  std::vector<std::string> values;
  for (const auto& [name, value] : configuration.values) values.push_back(fmt::format("\"{}\": {}", name, value));
  std::string out(source);
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += fmt::format("\n\n# kopt tune: {}\n", configuration.text());
  out += triton_pin_py;
  out += fmt::format("\n\n_kopt_pin(globals(), {{{}}})\n", join(values, ", "));
  return out;
}

}  // namespace

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration,
                         kernel::backend backend) {
  if (backend == kernel::backend::triton) return pinned_module(source, configuration);
  std::string out = fmt::format("// kopt tune: {}\n", configuration.text());
  for (const auto& [name, value] : configuration.values) {
    out += fmt::format("#ifndef {0}\n#define {0} {1}\n#endif\n", name, value);
  }
  out += source;
  return out;
}

}  // namespace kopt::tune
