#include "cli/dimension_args.h"

#include <cstdlib>

#include <fmt/format.h>

#include <map>

#include "cli/usage_errors.h"
#include "core/error.h"

namespace kopt::cli {
namespace {

bool is_valid_name(const std::string& name) {
  if (name.empty() || (std::isdigit(static_cast<unsigned char>(name[0])) != 0)) return false;
  for (const char c : name) {
    if ((std::isalnum(static_cast<unsigned char>(c)) == 0) && c != '_') return false;
  }
  return true;
}

dimension_arg split_assignment(const std::string& text, bool via_dim_flag) {
  const size_t eq = text.find('=');
  const std::string shown = via_dim_flag ? "--dim " + text : text;
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw error(fmt::format("malformed dimension '{}': write NAME=VALUE, e.g. --dim N=4096", shown));
  }
  dimension_arg arg{text.substr(0, eq), text.substr(eq + 1), via_dim_flag};
  if (!is_valid_name(arg.name)) {
    throw error(fmt::format("malformed dimension '{}': '{}' is not a parameter name", shown, arg.name));
  }
  return arg;
}

bool looks_numeric(const std::string& word) {
  if (word.empty()) return false;
  char* end = nullptr;
  std::strtod(word.c_str(), &end);
  return end != nullptr && *end == '\0';
}

// `token` (--NAME or --NAME=VALUE) with `value` (the next word, when NAME has none of its own):
// a dimension's value is a number (a Triton setup() may take text, but not under the name of
// an option with a letter changed), so a name close to one of `sub`'s options with no number
// is that option mistyped, not an unknown dimension.
void refuse_mistyped_option(const CLI::App& sub, const std::string& token, const std::string* next) {
  const std::size_t eq = token.find('=');
  const std::string name = token.substr(0, eq);
  const bool numeric = eq != std::string::npos ? looks_numeric(token.substr(eq + 1)) : next != nullptr && looks_numeric(*next);
  if (numeric) return;
  std::vector<std::string> options;
  for (const std::string& option : own_flag_names(sub)) options.push_back("--" + option);
  const std::string close = closest_name(name, options);
  if (close.empty()) return;
  throw error(fmt::format("unknown option {} for kopt {}; did you mean {}? (a dimension is written {}=NUMBER, or "
                          "--dim {}=NUMBER; kopt {} --help)",
                          name, sub.get_name(), close, name, name.substr(2), sub.get_name()));
}

}  // namespace

std::vector<dimension_arg> collect_dimension_args(const std::vector<std::string>& extras,
                                                  const std::vector<std::string>& dim_flags, const CLI::App* sub) {
  std::vector<dimension_arg> args;
  for (size_t i = 0; i < extras.size(); ++i) {
    const std::string& token = extras[i];
    if (sub != nullptr && token.size() > 2 && token.rfind("--", 0) == 0) {
      refuse_mistyped_option(*sub, token, i + 1 < extras.size() ? &extras[i + 1] : nullptr);
    }
    if (token.rfind("--", 0) != 0 || token.size() == 2) {
      throw error(fmt::format("unexpected argument '{}': dimensions are written --NAME=VALUE "
                              "(see --help for this command's options)",
                              token));
    }
    std::string body = token.substr(2);
    if (body.find('=') == std::string::npos) {
      // `--NAME VALUE`: the value is the next token, unless that is another flag.
      if (i + 1 >= extras.size() || extras[i + 1].rfind("--", 0) == 0) {
        throw error(fmt::format("unknown option or dimension without a value: '{}' "
                                "(write --{}=VALUE for a dimension; see --help for options)",
                                token, body));
      }
      body += "=" + extras[++i];
    }
    args.push_back(split_assignment(body, false));
  }
  for (const std::string& text : dim_flags) args.push_back(split_assignment(text, true));

  std::map<std::string, const dimension_arg*> seen;
  for (const auto& arg : args) {
    if (auto [it, inserted] = seen.emplace(arg.name, &arg); !inserted) {
      throw error(fmt::format("dimension {} given twice ({} and {}): keep one", arg.name,
                              it->second->value, arg.value));
    }
  }
  return args;
}

std::vector<std::string> own_flag_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* option : sub.get_options()) {
    for (const std::string& long_name : option->get_lnames()) names.push_back(long_name);
  }
  return names;
}

std::vector<std::string> attach_dimension_values(const CLI::App& sub, const std::vector<std::string>& args) {
  std::vector<std::string> out;
  bool separated = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!separated && word == "--") {
      separated = true;
      continue;
    }
    if (separated) {
      // No option of kopt's after `--`: a --NAME=VALUE (or --NAME VALUE) is a dimension whatever
      // its name, as --dim NAME=VALUE is; any other word is a positional (a file named -x.cu).
      if (word.size() > 2 && word.rfind("--", 0) == 0) {
        std::string assignment = word.substr(2);
        if (assignment.find('=') == std::string::npos && i + 1 < args.size()) assignment += "=" + args[++i];
        out.push_back("--dim");
        out.push_back(assignment);
      } else {
        // A relative path that starts with '-' is written ./-x.cu, which names the same file
        // and cannot be read as an option.
        out.push_back(word.rfind('-', 0) == 0 ? "./" + word : word);
      }
      continue;
    }
    const bool unknown_long_option = word.size() > 2 && word.rfind("--", 0) == 0 &&
                                     word.find('=') == std::string::npos &&
                                     sub.get_option_no_throw(word) == nullptr;
    if (unknown_long_option && i + 1 < args.size() && looks_numeric(args[i + 1])) {
      out.push_back(word + "=" + args[i + 1]);
      ++i;
    } else {
      out.push_back(word);
    }
  }
  return out;
}

}  // namespace kopt::cli
