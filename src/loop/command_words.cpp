#include "loop/command_words.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::loop {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// Characters that mean something to a shell beyond splitting words (~ and # only where a word
// starts: a home folder, a comment).
bool is_shell_operator(char c, bool word_start) {
  if (word_start && (c == '~' || c == '#')) return true;
  return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' || c == '(' || c == ')' || c == '$' || c == '`' ||
         c == '*' || c == '?' || c == '[';
}

[[noreturn]] void refuse(std::string_view command, const std::string& why) {
  throw error(fmt::format("cannot run the agent command \"{}\": {}; kopt runs it without a shell, so put what needs "
                          "one in a script and pass the script",
                          command, why));
}

}  // namespace

std::vector<std::string> split_command_words(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    const bool word_start = !in_word;
    in_word = true;
    if (c == '\\') {
      if (++i == command.size()) refuse(command, "it ends with a backslash");
      word += command[i];
    } else if (c == '\'') {
      const size_t end = command.find('\'', i + 1);
      if (end == std::string_view::npos) refuse(command, "a single quote is not closed");
      word.append(command.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i == command.size()) refuse(command, "a double quote is not closed");
        if (command[i] == '"') break;
        if (command[i] == '$' || command[i] == '`') refuse(command, fmt::format("'{}' inside double quotes asks for a substitution", command[i]));
        if (command[i] == '\\' && i + 1 < command.size() && std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos) ++i;
        word += command[i];
      }
    } else if (is_shell_operator(c, word_start)) {
      refuse(command, fmt::format("'{}' outside quotes is a shell operator", c));
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw error("the agent command is empty: pass --agent \"PROGRAM [ARGS...]\"");
  return words;
}

}  // namespace kopt::loop
