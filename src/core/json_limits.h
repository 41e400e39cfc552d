#pragma once
// JSON text read with limits, for every document kopt reads from a file, a process or a
// connection: a text that nests too deep (a reader that recurses would overflow the stack), is
// too large, holds a number beyond a double's range (`1e999`) or is not JSON at all becomes one
// `document_error` naming where, never an escaped library exception.

#include <cstddef>
#include <string_view>

#include "core/document_error.h"
#include "core/json.h"

namespace kopt {

struct json_limits {
  int max_depth = 64;                            // nested arrays and objects, the outermost counting 1
  std::size_t max_bytes = std::size_t{1} << 30;  // [bytes] of text
};

// The parsed value. Throws document_error ("nested deeper than 64 levels at byte 812", "not
// JSON: ...") when the text breaks a limit or is not JSON.
json parse_json_checked(std::string_view text, const json_limits& limits = {});

}  // namespace kopt
