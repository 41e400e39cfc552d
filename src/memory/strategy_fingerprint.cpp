#include "memory/strategy_fingerprint.h"

#include <algorithm>

#include "core/hash.h"
#include "core/json_io.h"

namespace kopt::memory {
namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// A JSON string as Python's json.dumps(ensure_ascii=False) writes it.
std::string python_json_string(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string normalize_tag(const std::string& tag) {
  std::string kept;
  bool in_space = false;
  for (const unsigned char c : tag) {
    if (is_space(c)) {
      if (!in_space) kept += '_';  // a run of whitespace becomes one "_"
      in_space = true;
      continue;
    }
    in_space = false;
    const char lower = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '_' || lower == '-') kept += lower;
  }
  return kept;
}

std::vector<std::string> normalize_tags(const std::vector<std::string>& tags) {
  std::vector<std::string> normalized;
  for (const auto& tag : tags) {
    std::string n = normalize_tag(tag);
    if (!n.empty()) normalized.push_back(std::move(n));
  }
  std::sort(normalized.begin(), normalized.end());
  normalized.erase(std::unique(normalized.begin(), normalized.end()), normalized.end());
  return normalized;
}

std::string strategy_fingerprint(const std::string& backend, const std::vector<std::string>& tags) {
  std::string text = "{\"backend\": " + python_json_string(backend) + ", \"tags\": [";
  const std::vector<std::string> normalized = normalize_tags(tags);
  for (std::size_t i = 0; i < normalized.size(); ++i) {
    if (i > 0) text += ", ";
    text += python_json_string(normalized[i]);
  }
  text += "]}";
  return sha1_hex(text).substr(0, 16);
}

}  // namespace kopt::memory
