// One kopt command line: parse it, dispatch to one subcommand, map the outcome to an exit code.
#include "cli/command_line.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/dimension_args.h"
#include "cli/usage_errors.h"
#include "core/error.h"
#include "core/escaped_error.h"
#include "core/json_io.h"
#include "core/text.h"

namespace kopt::cli {

// Every error leaves the same way: `kopt: error: HEADLINE` (and its detail) on stderr, and with
// --json the same as a JSON object on stdout, so a program reading stdout always gets JSON.
// A headline that quotes a huge input (a megabyte of annotation, say) is cut in the middle: the
// line stays readable and its end still says what to do.
int report_error(const std::string& full_headline, const std::string& detail, bool json) {
  constexpr std::size_t longest_headline = 1000;
  const std::string headline = kopt::shorten_middle(full_headline, longest_headline);
  std::fprintf(stderr, "kopt: error: %s\n", headline.c_str());
  if (!detail.empty()) std::fprintf(stderr, "%s%s", detail.c_str(), detail.back() == '\n' ? "" : "\n");
  constexpr auto status = kopt::exit_status::usage_or_environment;
  if (json) {
    const kopt::json document = kopt::with_schema(
        "error", 1,
        kopt::json{{"status", "error"}, {"exit_code", static_cast<int>(status)}, {"error", headline}, {"detail", detail}});
    std::printf("%s\n", kopt::json_text(document).c_str());
  }
  return static_cast<int>(status);
}

bool asks_for_json_output(const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [](const std::string& word) { return word == "--json"; });
}

namespace {

using command_list = std::vector<std::pair<CLI::App*, std::unique_ptr<kopt::cli::command>>>;

// The words after the program name, in the reversed order CLI11's parse(vector) expects, with
// `--NAME VALUE` dimensions attached for the subcommands that take dimensions.
std::vector<std::string> command_line_words(std::vector<std::string> words, const command_list& commands) {
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

std::string& version_text_storage() {
  static std::string text;
  return text;
}

}  // namespace

const std::string& running_version_text() { return version_text_storage(); }

int run_command_line(const std::vector<std::string>& given, const std::string& version_text,
                     const pipeline::services& services) {
  version_text_storage() = version_text;
  CLI::App app{"kopt: compile, validate, time, profile and diagnose GPU kernels", "kopt"};
  app.set_version_flag("--version", version_text);
  app.require_subcommand(1);
  app.footer("Run `kopt COMMAND --help` for a command's options. Exit codes: 0 success, "
             "1 the kernel under test failed, 2 usage or environment error.\n"
             "Commands that do work take --quiet (only errors and the result line); colour only on a "
             "terminal, never with NO_COLOR set.\n"
             "After a loop: kopt report optimize_runs/run_... (report.html with charts). "
             "Many benches in a row: kopt --warm bench ... (or KOPT_WARM=1) runs them in kopt's warm worker. "
             "Completion: source <(kopt completion bash) (or zsh).");

  command_list commands;
  for (const auto& entry : command_table()) {
    CLI::App* sub = add_table_command(app, entry);
    auto command = entry.make();
    command->configure(*sub);
    commands.emplace_back(sub, std::move(command));
  }

  const bool json = asks_for_json_output(given);
  // Whatever escapes parsing or a command (a file system error, a library's) is one line, never
  // a signal: the kopt::error meant, or the others in words (core/escaped_error.h).
  const auto report_escaped = [json] {
    const kopt::error e = kopt::current_exception_as_error();
    return report_error(e.headline(), e.detail(), json);
  };
  try {
    app.parse(command_line_words(given, commands));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_error(describe_parse_error(e, app, given), "", json);
  } catch (...) {
    return report_escaped();
  }

  for (auto& [sub, command] : commands) {
    if (!sub->parsed()) continue;
    try {
      return command->run(services);
    } catch (...) {
      return report_escaped();
    }
  }
  return static_cast<int>(kopt::exit_status::usage_or_environment);
}

}  // namespace kopt::cli
