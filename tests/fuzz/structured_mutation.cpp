#include "structured_mutation.h"

#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/document_error.h"
#include "core/json_limits.h"

namespace kopt::fuzz {
namespace {

using pointer = json::json_pointer;

// Stands for a value written as raw text after the document is printed.
constexpr std::string_view slot = "@@kopt-fuzz-slot@@";

void collect(const json& value, const pointer& at, std::vector<pointer>& out) {
  out.push_back(at);
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) collect(item, at / key, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) collect(value[i], at / i, out);
  }
}

// Values of every JSON type, the edges of numbers among them.
json wrong_value(std::mt19937_64& random) {
  static const std::array<json, 16> values = {
      json("text"), json(""), json(7), json(-1), json(0.5), json(true), json(false), json(nullptr), json::array(),
      json::object(), json::array({1, "a", nullptr}), json{{"a", 1}}, json(std::uint64_t{18446744073709551615u}),
      json(std::int64_t{-9223372036854775807 - 1}), json(1e308), json(-0.0)};
  return values[random() % values.size()];
}

// Raw text a slot becomes: what no JSON value of the document can hold as such.
std::string raw_value(std::size_t kind) {
  switch (kind % 6) {
    case 0: return "1e999";
    case 1: return "-1e999";
    case 2: return std::string(200000, '[') + std::string(200000, ']');
    case 3: {
      std::string deep;
      for (int i = 0; i < 200000; ++i) deep += "{\"a\":";
      return deep + "1" + std::string(200000, '}');
    }
    case 4: {
      std::string array = "[";
      for (int i = 0; i < 100000; ++i) array += i == 0 ? "0" : ",1";
      return array + "]";
    }
    default: return "\"" + std::string(100000, 'x') + "\"";
  }
}

std::string raw_name(std::size_t kind) {
  static const std::array<const char*, 6> names = {"1e999", "-1e999", "nested_arrays_200000", "nested_objects_200000",
                                                   "array_100000", "string_100000"};
  return names[kind % names.size()];
}

void flip_bytes(std::string& text, std::mt19937_64& random) {
  const int flips = 1 + static_cast<int>(random() % 4);
  for (int i = 0; i < flips && !text.empty(); ++i) text[random() % text.size()] = static_cast<char>(random() % 256);
}

}  // namespace

mutant mutate_json(const json& seed, std::mt19937_64& random, const std::function<void(json&)>& seal) {
  json document = seed;
  std::vector<std::string> done;
  std::vector<std::string> raw;  // what each slot becomes, in order
  const int edits = 1 + static_cast<int>(random() % 3);
  for (int e = 0; e < edits; ++e) {
    std::vector<pointer> paths;
    collect(document, pointer(), paths);
    const pointer at = paths[random() % paths.size()];
    const std::string where = at.to_string();
    switch (random() % 5) {
      case 0:
      case 1:
        document[at] = wrong_value(random);
        done.push_back(fmt::format("wrong_type({})", where));
        break;
      case 2:
        if (at.empty()) break;
        if (json& parent = document[at.parent_pointer()]; parent.is_object()) {
          parent.erase(at.back());
        } else if (parent.is_array()) {
          parent.erase(static_cast<std::size_t>(std::stoull(at.back())));
        }
        done.push_back(fmt::format("deletion({})", where));
        break;
      case 3:
        if (json& value = document[at]; value.is_object()) {
          value["unknown_field"] = wrong_value(random);
          done.push_back(fmt::format("added_field({})", where));
        }
        break;
      default: {
        const std::size_t kind = random();
        document[at] = std::string(slot);
        raw.push_back(raw_value(kind));
        done.push_back(fmt::format("{}({})", raw_name(kind), where));
        break;
      }
    }
  }
  std::string text = json_text(document);
  const std::string quoted = "\"" + std::string(slot) + "\"";
  for (const std::string& value : raw) {
    const std::size_t found = text.find(quoted);
    if (found != std::string::npos) text.replace(found, quoted.size(), value);
  }
  if (seal && random() % 8 != 0) {
    try {
      json parsed = parse_json_checked(text);
      seal(parsed);
      text = json_text(parsed);
      done.push_back("resealed");
    } catch (const document_error&) {
      // Not JSON any more: the reader refuses it as it is.
    }
  }
  switch (random() % 8) {
    case 0:
      flip_bytes(text, random);
      done.push_back("byte_flips");
      break;
    case 1:
      if (!text.empty()) text.resize(random() % text.size());
      done.push_back("truncation");
      break;
    default: break;
  }
  std::string names;
  for (const auto& d : done) names += (names.empty() ? "" : " ") + d;
  return {std::move(text), std::move(names)};
}

mutant mutate_text(const std::string& original, std::mt19937_64& random) {
  static constexpr std::array<std::string_view, 16> tricky = {
      "\"", "\n", ",", "\"\",\"\"", "9223372036854775808", "-1e400", "1e999", "n/a", "\xff\xfe", "(", ")",
      "    OPT   ", "          ", "  k (1, 1, 1)x(1, 1, 1), CC 9.0", "\"ID\",\"Kernel Name\"", "\r"};
  std::string text = original;
  std::vector<std::string> done;
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = random() % text.size();
    const std::size_t span = 1 + random() % std::min<std::size_t>(64, text.size() - at);
    switch (random() % 7) {
      case 0: text[at] = static_cast<char>(random() % 256); done.emplace_back("byte_flip"); break;
      case 1: text.erase(at, span); done.emplace_back("cut"); break;
      case 2: text.insert(at, text.substr(at, span)); done.emplace_back("repeat"); break;
      case 3: text.insert(at, tricky[random() % tricky.size()]); done.emplace_back("tricky_token"); break;
      case 4: text.resize(at); done.emplace_back("truncation"); break;
      case 5: text.insert(at, std::string(1 + random() % 2000, text[at])); done.emplace_back("long_run"); break;
      default: text.insert(at, std::string(30000, "x ,\"("[random() % 5])); done.emplace_back("line_30000"); break;
    }
  }
  std::string names;
  for (const auto& d : done) names += (names.empty() ? "" : " ") + d;
  return {std::move(text), std::move(names)};
}

}  // namespace kopt::fuzz
