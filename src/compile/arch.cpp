#include "compile/arch.h"

#include <regex>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"

namespace kopt::compile {

arch_target parse_arch(const std::string& text) {
  static const std::regex pattern(R"((?:sm_|compute_)?([1-9][0-9]?)([0-9])([af]?))");
  std::smatch match;
  const std::string lower = to_lower(trim(text));
  if (!std::regex_match(lower, match, pattern)) {
    throw error(fmt::format("unknown --arch '{}': write sm_XY, e.g. sm_90a for H100/H200 or sm_80 for A100",
                            text));
  }
  arch_target target;
  target.major = std::stoi(match[1].str());
  target.minor = std::stoi(match[2].str());
  target.suffix = match[3].str();
  target.name = fmt::format("sm_{}{}{}", target.major, target.minor, target.suffix);
  return target;
}

arch_target default_arch(std::optional<compute_capability> device) {
  if (!device) return parse_arch("sm_90a");
  // Arch-specific features (wgmma, TMA multicast...) exist on 9.0 only as sm_90a.
  const bool hopper = device->major == 9 && device->minor == 0;
  return parse_arch(fmt::format("sm_{}{}{}", device->major, device->minor, hopper ? "a" : ""));
}

std::vector<std::string> gencode_flags(const arch_target& target) {
  const std::string digits = fmt::format("{}{}{}", target.major, target.minor, target.suffix);
  return {fmt::format("-gencode=arch=compute_{},code=sm_{}", digits, digits)};
}

bool arch_runs_on(const arch_target& target, compute_capability device) {
  if (target.major != device.major) return false;
  if (!target.suffix.empty()) return target.minor == device.minor;
  return target.minor <= device.minor;
}

}  // namespace kopt::compile
