#include "core/json_io.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/json_limits.h"

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
    return parse_json_checked(text);
  } catch (const document_error& e) {
    throw e.in(path.string(), "the file is damaged or not the one kopt expects: restore it or make it again");
  }
}

}  // namespace kopt
