#include "kernel/python_comments.h"

#include <string>

namespace kopt::kernel {

std::vector<comment> python_comments(std::string_view source) {
  std::vector<comment> found;
  int line = 1;
  std::string_view quote;  // the open string's delimiter: ', ", ''' or """; empty outside one
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\n') {
      ++line;
      // A string with one quote ends at its line (an unterminated one is Python's error, not ours).
      if (quote.size() == 1) quote = {};
      continue;
    }
    if (!quote.empty()) {
      if (c == '\\') {
        if (i + 1 < source.size() && source[i + 1] == '\n') ++line;
        ++i;  // the escaped character cannot close the string
      } else if (source.substr(i, quote.size()) == quote) {
        i += quote.size() - 1;
        quote = {};
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      const bool triple = source.substr(i, 3) == std::string(3, c);
      quote = source.substr(i, triple ? 3 : 1);
      i += quote.size() - 1;
    } else if (c == '#') {
      const size_t end = source.find('\n', i);
      const std::string_view text = source.substr(i + 1, end == std::string_view::npos ? end : end - i - 1);
      found.push_back(comment{std::string(text), line, false});
      i = (end == std::string_view::npos ? source.size() : end) - 1;
    }
  }
  return found;
}

}  // namespace kopt::kernel
