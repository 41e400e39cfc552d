#include "core/json_io.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt {

json with_schema(std::string_view schema_name, int schema_version, const json& body) {
  json document = json::object();
  document["schema"] = fmt::format("kopt.{}/v{}", schema_name, schema_version);
  for (const auto& [key, value] : body.items()) document[key] = value;
  return document;
}

std::string json_text(const json& document, int indent) {
  return document.dump(indent, ' ', false, json::error_handler_t::replace);
}

void write_json_file(const std::filesystem::path& path, const json& document) {
  write_file_atomic(path, json_text(document) + "\n");
}

json read_json_file(const std::filesystem::path& path) {
  const std::string text = read_text_file(path, "JSON file");
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw error(fmt::format("{} is not valid JSON: {}", path.string(), e.what()));
  }
}

}  // namespace kopt
