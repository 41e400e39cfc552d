#pragma once
// Small string helpers shared by the parsers.

#include <string>
#include <string_view>
#include <vector>

namespace kopt {

std::string_view trim(std::string_view text);
std::vector<std::string> split_lines(std::string_view text);
// The words of `text`, separated by runs of whitespace; no empty word.
std::vector<std::string> split_words(std::string_view text);
std::string join(const std::vector<std::string>& parts, std::string_view separator);
std::string to_lower(std::string_view text);
// `text` when it fits in `max_bytes`, else its start and "..." in `max_bytes` (at least 4),
// cut between UTF-8 characters so that JSON writers still accept it.
std::string shorten(std::string_view text, size_t max_bytes);
// `text` when it fits in `max_bytes`, else its start, " [... N bytes cut ...] " and its end (the
// end of an error line says what to do), cut between UTF-8 characters. `max_bytes` >= 64.
std::string shorten_middle(std::string_view text, size_t max_bytes);
// "1.38 TFLOP/s" for (1.38e12, "FLOP/s"): three significant figures and an SI prefix (k to P).
std::string format_si(double value, std::string_view unit);
// Human-readable byte count: "4.00 MiB".
std::string format_bytes(double bytes);
// 1234567 -> "1,234,567".
std::string format_thousands(long long value);

}  // namespace kopt
