#include "core/document.h"

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

void check_range(const field_path* path, double value, double low, double high) {
  if (value < low || value > high)
    refuse(path, fmt::format("is {}, must be between {} and {}", value, low, high));
}

}  // namespace kopt::document_detail
