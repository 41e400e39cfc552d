#pragma once
// Names a kernel scalar must not take unless it is passed with --dim: every flag of kopt's
// commands, and the Python toolkit's compatibility flags.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kopt::cli {

std::vector<std::string> kopt_flag_names(const CLI::App& sub);

}  // namespace kopt::cli
