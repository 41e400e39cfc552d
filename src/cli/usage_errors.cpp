#include "cli/usage_errors.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt::cli {
namespace {

// The subcommand being parsed when the error came (the deepest one parsed), or null.
const CLI::App* parsed_subcommand(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); })) {
    const CLI::App* deeper = parsed_subcommand(*sub);
    return deeper != nullptr ? deeper : sub;
  }
  return nullptr;
}

std::string full_name(const CLI::App* sub) {
  std::string name = sub->get_name();
  for (const CLI::App* parent = sub->get_parent(); parent != nullptr && parent->get_parent() != nullptr;
       parent = parent->get_parent()) {
    name = parent->get_name() + " " + name;
  }
  return "kopt " + name;
}

// Hidden ones (an empty group: kopt's internal measuring process) are offered to no user.
std::vector<std::string> subcommand_names(const CLI::App& app, bool include_hidden = false) {
  const std::function<bool(const CLI::App*)> every;  // empty: CLI11 lists them all
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands(every)) {
    if (include_hidden || !sub->get_group().empty()) names.push_back(sub->get_name());
  }
  return names;
}

std::vector<std::string> long_option_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* option : sub.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

std::string with_suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string close = closest_name(word, candidates);
  return close.empty() ? "" : fmt::format("; did you mean {}?", close);
}

// An unknown command: the first plain word that names none.
std::string unknown_command(const CLI::App& app, const std::vector<std::string>& words) {
  const std::vector<std::string> names = subcommand_names(app);
  const std::vector<std::string> known = subcommand_names(app, true);
  for (const std::string& word : words) {
    if (word.rfind("-", 0) == 0) continue;
    if (std::find(known.begin(), known.end(), word) != known.end()) return "";
    return fmt::format("unknown command '{}'{} (kopt --help lists them)", word, with_suggestion(word, names));
  }
  return fmt::format("give a command: {} (kopt --help says what each does)", fmt::join(names, ", "));
}

}  // namespace

std::string describe_parse_error(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& words) {
  const CLI::App* sub = parsed_subcommand(app);
  if (sub == nullptr) {
    // Nothing parsed below the top: no command, an unknown one, or an unknown top-level flag.
    for (const std::string& word : words) {
      if (word.rfind("--", 0) == 0 && word != "--help" && word != "--version") {
        return fmt::format("unknown option {}{} (kopt --help)", word, with_suggestion(word, {"--help", "--version"}));
      }
      if (word.rfind("-", 0) != 0) break;
    }
    return unknown_command(app, words);
  }
  const std::string help = fmt::format("{} --help", full_name(sub));
  if (const std::vector<std::string> names = subcommand_names(*sub); !names.empty()) {
    // A command with commands of its own (kb list/show/match) got none it knows.
    const auto after = std::find(words.begin(), words.end(), sub->get_name());
    for (auto word = after == words.end() ? after : after + 1; word != words.end(); ++word) {
      if (word->rfind("-", 0) == 0) continue;
      return fmt::format("{}: unknown command '{}'{} ({})", full_name(sub), *word, with_suggestion(*word, names), help);
    }
    return fmt::format("{}: give one of {} ({})", full_name(sub), fmt::join(names, ", "), help);
  }
  const std::string message = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // "The following argument was not expected: W", or with several "... arguments were not
    // expected: x --outt" (in the reversed order kopt hands them to CLI11): an option among
    // them is the likelier mistake, so it is the one named.
    const std::size_t at = message.find("expected: ");
    std::vector<std::string> extras;
    std::string rest = at == std::string::npos ? message : message.substr(at + 10);
    for (std::size_t space; (space = rest.find(' ')) != std::string::npos; rest = rest.substr(space + 1)) {
      if (space > 0) extras.push_back(rest.substr(0, space));
    }
    if (!rest.empty()) extras.push_back(rest);
    const auto option = std::find_if(extras.begin(), extras.end(), [](const std::string& w) { return w.rfind("-", 0) == 0; });
    const std::string word = option != extras.end() ? *option : extras.empty() ? message : extras.back();
    if (word.rfind("-", 0) == 0) {
      return fmt::format("unknown option {} for {}{} ({})", word, full_name(sub),
                         with_suggestion(word.substr(0, word.find('=')), long_option_names(*sub)), help);
    }
    return fmt::format("unexpected argument '{}' for {} ({})", word, full_name(sub), help);
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    // "Could not convert: --warmup = abc"
    const std::size_t colon = message.find(": ");
    const std::string what = colon == std::string::npos ? message : message.substr(colon + 2);
    const std::size_t equals = what.find(" = ");
    if (equals == std::string::npos) return fmt::format("{}: not a valid value ({})", what, help);
    return fmt::format("{} {}: not a valid value for {} ({})", what.substr(0, equals), what.substr(equals + 3),
                       what.substr(0, equals), help);
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    // "kernel is required"
    return fmt::format("{}: {} ({})", full_name(sub), message, help);
  }
  return fmt::format("{}: {} ({})", full_name(sub), message, help);
}

}  // namespace kopt::cli
