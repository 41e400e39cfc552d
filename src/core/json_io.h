#pragma once
// Every JSON file kopt writes carries a schema name and version, and is written atomically.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"

namespace kopt {

// Returns {"schema": "<name>/v<version>", ...body} with the schema key first.
json with_schema(std::string_view schema_name, int schema_version, const json& body);

// The document as text (`indent` < 0: one line). Bytes that are not UTF-8 (a file name, a
// kernel's text, a CSV cell) become U+FFFD instead of failing the whole document.
std::string json_text(const json& document, int indent = 2);

void write_json_file(const std::filesystem::path& path, const json& document);

// Throws kopt::error naming the file when it is missing, not valid JSON or beyond
// parse_json_checked's limits.
json read_json_file(const std::filesystem::path& path);

// An optional value as a document field: the value, or null when there is none.
template <typename T>
json json_or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace kopt
