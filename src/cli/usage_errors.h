#pragma once
// The option parser's errors in kopt's words: one line that names the problem and what to do
// ("unknown command 'bnch'; did you mean 'bench'?"), instead of CLI11's raw message.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// The closest of `candidates` to `word` when it is a likely typo (at most a third of its
// letters, and at least one, differ); "" when none is close.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

// `words`: the command line after the program name, in order. `app`: kopt's top-level app
// after the failed parse (its subcommands say which one was being parsed).
std::string describe_parse_error(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& words);

}  // namespace kopt::cli
