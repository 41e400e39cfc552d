// kopt: parse the command line, dispatch to one subcommand, map the outcome to an exit code.

#include <cstdio>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kopt: compile, validate, time, profile and diagnose GPU kernels"};
  app.set_version_flag("--version", fmt::format("kopt {}", kopt::version_string));
  app.require_subcommand(1);
  app.footer("Run `kopt COMMAND --help` for a command's options. Exit codes: 0 success, "
             "1 the kernel under test failed, 2 usage or environment error.");

  std::vector<std::pair<CLI::App*, std::unique_ptr<kopt::cli::command>>> commands;
  for (const auto& entry : kopt::cli::command_table()) {
    CLI::App* sub = app.add_subcommand(entry.name, entry.summary);
    auto command = entry.make();
    command->configure(*sub);
    commands.emplace_back(sub, std::move(command));
  }

  try {
    app.parse(argc, argv);
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
