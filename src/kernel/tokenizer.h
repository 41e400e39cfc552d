#pragma once
// A C/C++/CUDA tokenizer good enough to find declarations: identifiers, numbers,
// punctuation, string and character literals, each with its line. Comments are kept apart
// (annotations live in them); preprocessor lines are dropped, since kopt reads solve()'s
// declaration as written, not as macros would expand it.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::kernel {

enum class token_kind { identifier, number, punctuation, string_literal, char_literal };

struct token {
  token_kind kind = token_kind::punctuation;
  std::string text;    // literals keep their quotes: "\"C\""
  int line = 0;        // 1-based
  size_t offset = 0;   // [bytes] into the tokenized text

  bool is(std::string_view spelling) const {
    return kind != token_kind::string_literal && kind != token_kind::char_literal &&
           text == spelling;
  }
  bool is_identifier() const { return kind == token_kind::identifier; }
};

struct comment {
  std::string text;    // without the // or /* */ delimiters
  int line = 0;        // line of the opening delimiter
  bool is_block = false;
};

struct token_stream {
  std::vector<token> tokens;
  std::vector<comment> comments;  // also those inside preprocessor lines
};

// Never fails: an unterminated literal ends at its line's end and an unterminated block
// comment at the end of the text (the compiler, not kopt, reports such mistakes).
// `first_line` numbers the first line of `source` (annotations tokenize a comment's text).
token_stream tokenize(std::string_view source, int first_line = 1);

}  // namespace kopt::kernel
