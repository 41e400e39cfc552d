// kopt: parse the command line, dispatch to one subcommand, map the outcome to an exit code.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/dimension_args.h"
#include "core/error.h"
#include "core/version.h"

namespace {

int report_error(const kopt::error& e) {
  std::fprintf(stderr, "kopt: error: %s\n", e.headline().c_str());
  if (!e.detail().empty()) {
    std::fprintf(stderr, "%s%s", e.detail().c_str(), e.detail().back() == '\n' ? "" : "\n");
  }
  return static_cast<int>(kopt::exit_status::usage_or_environment);
}

using command_list = std::vector<std::pair<CLI::App*, std::unique_ptr<kopt::cli::command>>>;

// The words after the program name, in the reversed order CLI11's parse(vector) expects, with
// `--NAME VALUE` dimensions attached for the subcommands that take dimensions.
std::vector<std::string> command_line_words(int argc, char** argv, const command_list& commands) {
  std::vector<std::string> words(argv + 1, argv + argc);
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (const auto& [sub, command] : commands) {
      if (sub->get_name() != words[i] || !sub->get_allow_extras()) continue;
      const std::vector<std::string> rest(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end());
      words.resize(i + 1);
      for (const auto& word : kopt::cli::attach_dimension_values(*sub, rest)) words.push_back(word);
      std::reverse(words.begin(), words.end());
      return words;
    }
    if (words[i].rfind("-", 0) != 0) break;  // the first plain word names the subcommand
  }
  std::reverse(words.begin(), words.end());
  return words;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kopt: compile, validate, time, profile and diagnose GPU kernels", "kopt"};
  app.set_version_flag("--version", fmt::format("kopt {}", kopt::version_string));
  app.require_subcommand(1);
  app.footer("Run `kopt COMMAND --help` for a command's options. Exit codes: 0 success, "
             "1 the kernel under test failed, 2 usage or environment error.");

  command_list commands;
  for (const auto& entry : kopt::cli::command_table()) {
    CLI::App* sub = app.add_subcommand(entry.name, entry.summary);
    auto command = entry.make();
    command->configure(*sub);
    commands.emplace_back(sub, std::move(command));
  }

  try {
    app.parse(command_line_words(argc, argv, commands));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return static_cast<int>(kopt::exit_status::usage_or_environment);
  } catch (const kopt::error& e) {
    return report_error(e);
  }

  for (auto& [sub, command] : commands) {
    if (!sub->parsed()) continue;
    try {
      return command->run();
    } catch (const kopt::error& e) {
      return report_error(e);
    }
  }
  return static_cast<int>(kopt::exit_status::usage_or_environment);
}
