#include "core/json_limits.h"

#include <string>

#include <fmt/format.h>

namespace kopt {
namespace {

// nlohmann's messages begin with "[json.exception.parse_error.101] ": the rest is the reader's.
std::string library_message(const json::exception& e) {
  const std::string text = e.what();
  const auto end = text.find("] ");
  return end == std::string::npos ? text : text.substr(end + 2);
}

}  // namespace

json parse_json_checked(std::string_view text, const json_limits& limits) {
  if (text.size() > limits.max_bytes) {
    throw document_error("", fmt::format("{} bytes of JSON, more than the {} a document may have",
                                         text.size(), limits.max_bytes));
  }
  // The parser itself keeps its own stack; the callback refuses a level past the limit before
  // anything that recurses (copying, printing, destroying the value) could meet it.
  const json::parser_callback_t depth_check = [&limits](int depth, json::parse_event_t event, json&) {
    const bool opens =
        event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && depth + 1 > limits.max_depth) {
      throw document_error("",
                           fmt::format("arrays and objects nested deeper than {} levels", limits.max_depth));
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), depth_check);
  } catch (const json::out_of_range& e) {
    throw document_error("", fmt::format("a number beyond the range of a double ({})", library_message(e)));
  } catch (const json::exception& e) {
    throw document_error("", fmt::format("not valid JSON ({})", library_message(e)));
  }
}

}  // namespace kopt
