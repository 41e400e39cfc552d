#include "kernel/check_shapes.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/scalar_binding.h"

namespace kopt::kernel {
namespace {


constexpr const char* syntax =
    "write each shape as dimension flags in one argument, e.g. --check-dims \"--rows=1000 --cols=1000\"";

[[noreturn]] void malformed(std::string_view text, const std::string& why) {
  throw error(fmt::format("malformed --check-dims \"{}\": {}; {}", text, why, syntax));
}

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool is_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

// `word` is NAME=VALUE; `shown` is how it was written ("--rows=1000").
dimension_arg assignment(std::string_view text, const std::string& word, const std::string& shown,
                         bool via_dim_flag) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == word.size()) {
    malformed(text, fmt::format("'{}' is not {}NAME=VALUE", shown, via_dim_flag ? "--dim " : "--"));
  }
  dimension_arg arg{word.substr(0, eq), word.substr(eq + 1), via_dim_flag};
  if (!is_name(arg.name)) malformed(text, fmt::format("'{}' is not a parameter name", arg.name));
  return arg;
}

// The shape's own flags, as written.
std::vector<dimension_arg> flags_of(std::string_view text) {
  const std::vector<std::string> words = words_of(text);
  if (words.empty()) malformed(text, "it names no dimension");
  std::vector<dimension_arg> flags;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--dim") {
      if (i + 1 == words.size()) malformed(text, "--dim without NAME=VALUE");
      ++i;
      flags.push_back(assignment(text, words[i], "--dim " + words[i], true));
    } else if (word.size() > 2 && word.rfind("--", 0) == 0) {
      flags.push_back(assignment(text, word.substr(2), word, false));
    } else {
      malformed(text, fmt::format("'{}' is not a dimension flag (--NAME=VALUE)", word));
    }
  }
  return flags;
}

}  // namespace

check_shape parse_check_dims(std::string_view text, const std::vector<dimension_arg>& benchmarked) {
  check_shape shape{benchmarked, ""};
  std::vector<std::string> seen;
  bool changes = false;
  for (const dimension_arg& flag : flags_of(text)) {
    if (std::find(seen.begin(), seen.end(), flag.name) != seen.end()) {
      malformed(text, fmt::format("{} is given twice", flag.name));
    }
    seen.push_back(flag.name);
    const auto at = std::find_if(shape.dims.begin(), shape.dims.end(),
                                 [&](const dimension_arg& d) { return d.name == flag.name; });
    if (at == shape.dims.end()) {
      std::vector<std::string> names;
      for (const auto& d : benchmarked) names.push_back(kernel::spell_dimension(d));
      malformed(text, fmt::format("{} is not one of the benchmarked dimensions ({})", flag.name,
                                  names.empty() ? "none given" : join(names, " ")));
    }
    changes = changes || at->value != flag.value;
    *at = flag;
  }
  if (!changes) malformed(text, "it is the benchmarked shape itself");
  std::vector<std::string> spelled;
  for (const auto& d : shape.dims) spelled.push_back(kernel::spell_dimension(d));
  shape.label = join(spelled, " ");
  return shape;
}

std::vector<check_shape> parse_check_dims_list(const std::vector<std::string>& values,
                                               const std::vector<dimension_arg>& benchmarked) {
  std::vector<check_shape> shapes;
  for (const std::string& value : values) {
    check_shape shape = parse_check_dims(value, benchmarked);
    for (const auto& earlier : shapes) {
      if (earlier.label == shape.label) {
        malformed(value, fmt::format("the shape {} is given twice", shape.label));
      }
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

std::vector<dimension_arg> parse_dimension_flags(std::string_view text) {
  if (text.empty()) return {};
  return flags_of(text);
}

std::vector<std::string> check_labels(const std::vector<check_shape>& shapes) {
  std::vector<std::string> labels;
  for (const auto& s : shapes) labels.push_back(s.label);
  return labels;
}

}  // namespace kopt::kernel
