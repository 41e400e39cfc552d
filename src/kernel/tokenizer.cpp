#include "kernel/tokenizer.h"

#include <array>
#include <cctype>

namespace kopt::kernel {
namespace {

bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Multi-character punctuators kopt's parsers care about. Shifts and `>>` are left as single
// characters on purpose: a template's closing `>>` must count as two closing brackets.
constexpr std::array<std::string_view, 11> multi_char_punctuators = {
    "...", "::", "->", "&&", "||", "==", "!=", "++", "--", "<=", ">="};

class lexer {
 public:
  lexer(std::string_view source, int first_line) : m_src(source), m_line(first_line) {}

  token_stream run() {
    while (m_pos < m_src.size()) step();
    return std::move(m_out);
  }

 private:
  char peek(size_t ahead = 0) const {
    return m_pos + ahead < m_src.size() ? m_src[m_pos + ahead] : '\0';
  }

  void advance(size_t count = 1) {
    for (size_t i = 0; i < count && m_pos < m_src.size(); ++i) {
      if (m_src[m_pos] == '\n') ++m_line;
      ++m_pos;
    }
  }

  void step() {
    const char c = peek();
    if (c == '\n') {
      advance();
      m_at_line_start = true;
    } else if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
      advance(peek(1) == '\n' ? 2 : 3);  // a line splice outside a directive
    } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      line_comment();
    } else if (c == '/' && peek(1) == '*') {
      block_comment();
    } else if (c == '#' && m_at_line_start) {
      directive();
    } else {
      m_at_line_start = false;
      next_token();
    }
  }

  void line_comment() {
    const int line = m_line;
    advance(2);
    const size_t start = m_pos;
    while (m_pos < m_src.size() && peek() != '\n') advance();
    m_out.comments.push_back({std::string(m_src.substr(start, m_pos - start)), line, false});
  }

  void block_comment() {
    const int line = m_line;
    advance(2);
    const size_t start = m_pos;
    const size_t end = m_src.find("*/", m_pos);
    const size_t stop = end == std::string_view::npos ? m_src.size() : end;
    advance(stop - m_pos);
    m_out.comments.push_back({std::string(m_src.substr(start, stop - start)), line, true});
    advance(2);
  }

  // Skips a preprocessor line and its backslash continuations, keeping its comments.
  void directive() {
    while (m_pos < m_src.size()) {
      const char c = peek();
      if (c == '\n') return;  // step() sees the newline and marks the next line's start
      if (c == '\\' && peek(1) == '\n') {
        advance(2);
      } else if (c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
        advance(3);
      } else if (c == '/' && peek(1) == '/') {
        line_comment();
      } else if (c == '/' && peek(1) == '*') {
        block_comment();
      } else if (c == '"' || c == '\'') {
        quoted(c);  // so that a "//" in an #include path is not a comment
      } else {
        advance();
      }
    }
  }

  // A string or character literal starting at m_pos; returns it with its quotes.
  std::string quoted(char quote) {
    const size_t start = m_pos;
    advance();
    while (m_pos < m_src.size() && peek() != quote && peek() != '\n') {
      advance(peek() == '\\' && peek(1) != '\n' ? 2 : 1);
    }
    if (peek() == quote) advance();
    return std::string(m_src.substr(start, m_pos - start));
  }

  // R"delim( ... )delim"; m_pos is at the opening quote.
  std::string raw_string() {
    const size_t start = m_pos;
    const size_t open = m_src.find('(', m_pos);
    if (open == std::string_view::npos) return quoted('"');
    std::string closing = ")";  // )delim"
    closing += m_src.substr(m_pos + 1, open - m_pos - 1);
    closing += '"';
    const size_t end = m_src.find(closing, open);
    const size_t stop = end == std::string_view::npos ? m_src.size() : end + closing.size();
    advance(stop - m_pos);
    return std::string(m_src.substr(start, m_pos - start));
  }

  void emit(token_kind kind, std::string text, int line, size_t offset) {
    m_out.tokens.push_back({kind, std::move(text), line, offset});
  }

  void next_token() {
    const int line = m_line;
    const size_t start = m_pos;
    const char c = peek();
    if (is_identifier_start(c)) {
      while (is_identifier_char(peek())) advance();
      const std::string_view word = m_src.substr(start, m_pos - start);
      if (peek() == '"' && (word == "R" || word == "LR" || word == "uR" || word == "UR" ||
                            word == "u8R")) {
        emit(token_kind::string_literal, raw_string(), line, start);
        return;
      }
      emit(token_kind::identifier, std::string(word), line, start);
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      number();
    } else if (c == '"') {
      emit(token_kind::string_literal, quoted('"'), line, start);
    } else if (c == '\'') {
      emit(token_kind::char_literal, quoted('\''), line, start);
    } else {
      for (const auto punctuator : multi_char_punctuators) {
        if (m_src.substr(m_pos, punctuator.size()) == punctuator) {
          advance(punctuator.size());
          emit(token_kind::punctuation, std::string(punctuator), line, start);
          return;
        }
      }
      advance();
      emit(token_kind::punctuation, std::string(1, c), line, start);
    }
  }

  // A preprocessing number: digits, letters, '.', digit separators (1'024) and exponent
  // signs (1e-3, 0x1p+4).
  void number() {
    const int line = m_line;
    const size_t start = m_pos;
    while (m_pos < m_src.size()) {
      const char c = peek();
      if (is_identifier_char(c) || c == '.') {
        advance();
      } else if (c == '\'' && is_identifier_char(peek(1))) {
        advance(2);
      } else if ((c == '+' || c == '-') && m_pos > start &&
                 (m_src[m_pos - 1] == 'e' || m_src[m_pos - 1] == 'E' ||
                  m_src[m_pos - 1] == 'p' || m_src[m_pos - 1] == 'P')) {
        advance();
      } else {
        break;
      }
    }
    emit(token_kind::number, std::string(m_src.substr(start, m_pos - start)), line, start);
  }

  std::string_view m_src;
  size_t m_pos = 0;
  int m_line = 1;
  bool m_at_line_start = true;
  token_stream m_out;
};

}  // namespace

token_stream tokenize(std::string_view source, int first_line) {
  return lexer(source, first_line).run();
}

}  // namespace kopt::kernel
