#include "core/document.h"

#include <algorithm>

#include <fmt/format.h>

namespace kopt::document_detail {
namespace {

// A value in the error as the reader met it, cut short: a 100,000-element array is not quoted.
std::string quoted(const json& value) {
  constexpr std::size_t most = 60;
  std::string text = json_text(value, -1);
  if (text.size() > most) text = text.substr(0, most) + "...";
  return text;
}

}  // namespace

std::string field_path::text() const {
  std::vector<const field_path*> steps;
  for (const field_path* step = this; step != nullptr; step = step->parent) steps.push_back(step);
  std::string out;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    const field_path& step = **it;
    if (step.key.empty()) {
      out += fmt::format("[{}]", step.index);
    } else {
      if (!out.empty()) out += '.';
      out += step.key;
    }
  }
  return out;
}

void refuse(const field_path* path, std::string problem) {
  throw document_error(path != nullptr ? path->text() : "", std::move(problem));
}

void refuse_type(const field_path* path, const char* expected, const json& found) {
  refuse(path, fmt::format("must be {}, found {} {}", expected, found.type_name(), quoted(found)));
}

void check_parts(const json& in, const document_parts_table& table, const field_path* path) {
  const std::string kind = in.at(table.discriminator).get<std::string>();
  for (const auto& [field, kinds] : table.parts) {
    const bool present = in.contains(field) && !in.at(field).is_null();
    const bool needed = std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
    const field_path at{path, field};
    if (needed && !present) refuse(&at, fmt::format("is missing: a {} {} needs one", kind, table.noun));
    if (!needed && present) refuse(&at, fmt::format("is not part of a {} {}", kind, table.noun));
  }
}

void check_range(const field_path* path, double value, double low, double high) {
  if (value < low || value > high)
    refuse(path, fmt::format("is {}, must be between {} and {}", value, low, high));
}

}  // namespace kopt::document_detail
