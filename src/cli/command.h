#pragma once
// A subcommand of kopt: it declares its options on a CLI11 sub-app, then runs.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/services.h"

namespace kopt::cli {

class command {
 public:
  virtual ~command() = default;
  // Declares options and positionals on `sub`; values land in the command's members.
  virtual void configure(CLI::App& sub) = 0;
  // Runs after parsing, with what the front end made for every command; returns the process
  // exit status (see core/error.h).
  virtual int run(const pipeline::services& services) = 0;
};

struct command_entry {
  std::string name;
  std::string summary;
  std::function<std::unique_ptr<command>()> make;
  // kopt's own processes (the measuring process, the text pages' writer): left out of --help,
  // the completions and the suggestions for a mistyped command.
  bool internal = false;
};

// The table main() dispatches through, in the order `kopt --help` lists them.
const std::vector<command_entry>& command_table();

// `entry`'s subcommand on `app`, hidden when it is internal (the one way a table entry becomes a
// subcommand, for the command line and for the completion scripts alike).
CLI::App* add_table_command(CLI::App& app, const command_entry& entry);

}  // namespace kopt::cli
