#include <fmt/format.h>

#include "mcp/tool.h"

namespace kopt::mcp {
namespace {

bool has_type(const json& value, const std::string& type) {
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

std::string type_problem(const json& schema, const json& value, const std::string& where) {
  if (!schema.contains("type")) return "";
  const json& type = schema["type"];
  std::vector<std::string> types;
  if (type.is_string()) types.push_back(type.get<std::string>());
  if (type.is_array()) {
    for (const auto& t : type) types.push_back(t.get<std::string>());
  }
  for (const auto& t : types) {
    if (has_type(value, t)) return "";
  }
  return fmt::format("{} must be {}", where, fmt::join(types, " or "));
}

std::string value_problem(const json& schema, const json& value, const std::string& where) {
  if (auto problem = type_problem(schema, value, where); !problem.empty()) return problem;
  if (schema.contains("enum")) {
    bool listed = false;
    for (const auto& allowed : schema["enum"]) listed = listed || allowed == value;
    if (!listed) return fmt::format("{} must be one of {}", where, json_text(schema["enum"], -1));
  }
  // The schema's bounds are the tool's word to the client: a value outside them is refused here,
  // by the same rule for every tool, rather than by a check each tool writes for itself.
  if (value.is_number() && schema.contains("minimum") && value.get<double>() < schema["minimum"].get<double>()) {
    return fmt::format("{} must be at least {}", where, json_text(schema["minimum"], -1));
  }
  if (value.is_number() && schema.contains("exclusiveMinimum") &&
      value.get<double>() <= schema["exclusiveMinimum"].get<double>()) {
    return fmt::format("{} must be more than {}", where, json_text(schema["exclusiveMinimum"], -1));
  }
  if (value.is_number() && schema.contains("maximum") && value.get<double>() > schema["maximum"].get<double>()) {
    return fmt::format("{} must be at most {}", where, json_text(schema["maximum"], -1));
  }
  if (value.is_object() && schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
    for (const auto& [key, item] : value.items()) {
      if (auto problem = value_problem(schema["additionalProperties"], item, fmt::format("{}.{}", where, key));
          !problem.empty()) {
        return problem;
      }
    }
  }
  if (value.is_array() && schema.contains("items")) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (auto problem = value_problem(schema["items"], value[i], fmt::format("{}[{}]", where, i)); !problem.empty()) {
        return problem;
      }
    }
  }
  return "";
}

}  // namespace

std::string argument_problem(const json& schema, const json& arguments) {
  if (!arguments.is_object()) return "the arguments must be an object";
  for (const auto& name : schema.value("required", json::array())) {
    if (!arguments.contains(name.get<std::string>())) return fmt::format("'{}' is required", name.get<std::string>());
  }
  const json& properties = schema.value("properties", json::object());
  for (const auto& [key, value] : arguments.items()) {
    if (!properties.contains(key)) {
      std::vector<std::string> known;
      for (const auto& [name, _] : properties.items()) known.push_back(name);
      return fmt::format("'{}' is not an argument of this tool (it takes {})", key, fmt::join(known, ", "));
    }
    if (auto problem = value_problem(properties[key], value, fmt::format("'{}'", key)); !problem.empty()) return problem;
  }
  return "";
}

std::string string_argument(const json& arguments, const char* name) {
  return arguments.contains(name) && arguments[name].is_string() ? arguments[name].get<std::string>() : "";
}

std::vector<kernel::dimension_arg> dimension_arguments(const json& arguments) {
  std::vector<kernel::dimension_arg> dims;
  if (!arguments.contains("dims")) return dims;
  for (const auto& [name, value] : arguments["dims"].items()) {
    dims.push_back({name, value.is_string() ? value.get<std::string>() : json_text(value, -1), true});
  }
  return dims;
}

std::vector<std::string> string_list_argument(const json& arguments, const char* name) {
  return arguments.contains(name) ? arguments[name].get<std::vector<std::string>>() : std::vector<std::string>{};
}

json input_object(json properties, json required) {
  return json{{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)},
              {"additionalProperties", false}};
}

json kernel_schema() {
  return json{{"type", "string"},
              {"description", "a kernel file in the workspace: a .cu file with extern \"C\" void solve(...), or a "
                              "Triton .py module with setup() and run_kernel()"}};
}

json dims_schema() {
  return json{{"type", "object"},
              {"description", "the dimensions: solve()'s scalars (or setup()'s arguments) by name, e.g. {\"rows\": "
                              "4096, \"cols\": 1024}"},
              {"additionalProperties", json{{"type", json::array({"integer", "number", "string"})}}}};
}

json defines_schema() {
  return json{{"type", "array"},
              {"description",
               "-D definitions NAME or NAME=VALUE for the build; they pick among #if variants of solve()"},
              {"items", string_schema()}};
}

json detail_schema() {
  return json{{"type", "string"},
              {"enum", json::array({"summary", "full"})},
              {"description", "summary (default): the facts an agent acts on; full: kopt's whole result document"}};
}

json string_schema() {
  return json{{"type", "string"}};
}

json number_schema() {
  return json{{"type", "number"}};
}

json array_schema(json items) {
  return json{{"type", "array"}, {"items", std::move(items)}};
}

json nullable(json schema) {
  schema["type"] = json::array({schema["type"], "null"});
  return schema;
}

}  // namespace kopt::mcp
