#pragma once
// One kopt command line, parsed and run: what main() does, and what the warm worker does for
// each client (worker_command.cpp). Errors leave as main's do: a one-line `kopt: error:` on
// stderr (and a JSON object on stdout with --json), exit status 2.

#include <string>
#include <vector>

#include "pipeline/services.h"

namespace kopt::cli {

// `words`: the command line without the program's name. `version_text`: what --version prints.
// `services`: what every command measures and keeps through (main's, or a test's).
int run_command_line(const std::vector<std::string>& words, const std::string& version_text,
                     const pipeline::services& services = {});

// What --version prints, as the last run_command_line was given it (the warm worker runs its
// clients' command lines with it).
const std::string& running_version_text();

// How every error leaves: `kopt: error: HEADLINE` and its detail on stderr and, when `json`, the
// same as a JSON object on stdout. Returns exit status 2.
int report_error(const std::string& headline, const std::string& detail, bool json);

// Whether the command line asks for JSON on stdout (--json anywhere).
bool asks_for_json_output(const std::vector<std::string>& words);

}  // namespace kopt::cli
