#pragma once
// The option parser's errors in kopt's words: one line that names the problem and what to do
// ("unknown command 'bnch'; did you mean 'bench'?"), instead of CLI11's raw message.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/closest_name.h"

namespace kopt::cli {


// `words`: the command line after the program name, in order. `app`: kopt's top-level app
// after the failed parse (its subcommands say which one was being parsed).
std::string describe_parse_error(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& words);

}  // namespace kopt::cli
