#pragma once
// Shell completion for kopt, generated from the parsed command tree (the command table and
// every command's own options), so that it cannot fall behind the commands: bash and zsh.
// Commands, their actions (kb list|show|match, ...) and option names are completed; any other
// word falls back to the shell's file completion (kernels, references, run folders).

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// What the scripts offer for one command or one action of a command.
struct completion_entry {
  std::string command;                 // "bench"
  std::string action;                  // "" or "list" (kb list)
  std::string summary;
  std::vector<std::string> actions;    // the command's actions, with their summaries below
  std::vector<std::string> action_summaries;
  struct option {
    std::string name;                  // "--ref", "-D"
    std::string description;
    bool takes_value = false;
  };
  std::vector<option> options;
};

// Every visible command of `app` (kopt's top-level app), then every action of each; hidden
// commands (kopt's internal ones) are left out.
std::vector<completion_entry> completion_entries(const CLI::App& app);

std::string bash_completion_script(const std::vector<completion_entry>& entries);
std::string zsh_completion_script(const std::vector<completion_entry>& entries);

}  // namespace kopt::cli
