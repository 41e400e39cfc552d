#include "cli/device_option.h"

#include "cli/option_checks.h"

namespace kopt::cli {

void add_gpu_option(CLI::App& sub, int& gpu, const std::string& description) {
  sub.add_option("--gpu", gpu, description)->default_val(0)->check(at_least(0, "a device ordinal"));
}

}  // namespace kopt::cli
