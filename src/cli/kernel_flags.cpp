#include "cli/kernel_flags.h"

#include <algorithm>
#include <string_view>

#include "cli/dimension_args.h"

namespace kopt::cli {
namespace {

// Flags of the commands that run kernels (bench, loop, profile), as DESIGN.md lists them.
// inspect checks scalar names against them too, so that it predicts what those commands
// will accept even before they exist; the flags of every registered command are added.
constexpr std::string_view compatibility_flags[] = {
    "ref",     "backend",  "warmup",      "repeat",         "arch",
    "gpu",     "ptr-size", "seed",        "atol",           "rtol",
    "json-out", "nvcc-bin", "ncu-bin",    "max-iterations", "run-dir",
    "iteration", "kernel-name-regex", "launch-skip", "launch-count", "preflight-only",
    "out",     "json",     "dim",         "help",           "version"};

}  // namespace

std::vector<std::string> kopt_flag_names(const CLI::App& sub) {
  std::vector<std::string> names = own_flag_names(sub);
  if (const CLI::App* parent = sub.get_parent()) {
    for (const CLI::App* sibling : parent->get_subcommands([](const CLI::App*) { return true; })) {
      for (auto& name : own_flag_names(*sibling)) names.push_back(std::move(name));
    }
  }
  for (const auto flag : compatibility_flags) names.emplace_back(flag);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace kopt::cli
