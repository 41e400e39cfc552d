#pragma once
// Every JSON file kopt writes carries a schema name and version, and is written atomically.

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kopt {

using json = nlohmann::ordered_json;

// Returns {"schema": "<name>/v<version>", ...body} with the schema key first.
json with_schema(std::string_view schema_name, int schema_version, const json& body);

void write_json_file(const std::filesystem::path& path, const json& document);

// Throws kopt::error naming the file when it is missing or not valid JSON.
json read_json_file(const std::filesystem::path& path);

}  // namespace kopt
