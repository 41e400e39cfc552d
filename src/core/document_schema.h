#pragma once
// A document's JSON Schema, derived from the same field list as its writer and reader
// (document.h): what a person or another program reads to know a kopt document's shape (the
// files under docs/schemas/, an MCP tool's output schema). A field renamed or retyped changes it.
//
// Shapes: a described struct is an object with its fields as properties, every field required
// except std::optional ones (which may also be null), no other properties; a described enum is
// one of its names; numbers carry their declared range (document_ranges); `json` fields are open.
// A document with a parts table (document.h) carries it as "x-kopt-parts", an annotation that
// JSON Schema validators ignore and kopt's Python reader applies.

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "core/document.h"

namespace kopt {
namespace document_detail {

template <typename T>
json schema_of();

template <typename S, typename M>
void add_declared_range(json& schema, M S::*member) {
  std::apply(
      [&](const auto&... range) {
        (
            [&] {
              if constexpr (std::is_same_v<decltype(range.member), M S::*>) {
                if (range.member != member) return;
                json& target = schema.contains("items") ? schema["items"] : schema;
                json& numbers = target.contains("anyOf") ? target["anyOf"][0] : target;
                numbers["minimum"] = range.low;
                numbers["maximum"] = range.high;
              }
            }(),
            ...);
      },
      document_ranges<S>);
}

template <typename T>
json struct_schema() {
  json properties = json::object();
  json required = json::array();
  if constexpr (schema_document<T>) {
    properties["schema"] = json{{"const", std::string(T::document_schema)}};
    required.push_back("schema");
  }
  boost::mp11::mp_for_each<members_of<T>>([&](auto member) {
    using field_type = std::remove_cvref_t<decltype(std::declval<T&>().*member.pointer)>;
    json field = schema_of<field_type>();
    add_declared_range(field, member.pointer);
    properties[member.name] = std::move(field);
    if (!is_optional<field_type>::value) required.push_back(member.name);
  });
  json schema{{"type", "object"},
              {"properties", properties},
              {"required", required},
              {"additionalProperties", false}};
  if constexpr (parted_document<T>) {
    const document_parts_table table = parts_of_document(static_cast<const T*>(nullptr));
    json parts = json::object();
    for (const auto& [field, kinds] : table.parts) parts[field] = kinds;
    schema["x-kopt-parts"] =
        json{{"discriminator", table.discriminator}, {"noun", table.noun}, {"parts", parts}};
  }
  return schema;
}

template <typename T>
json schema_of() {
  if constexpr (std::is_same_v<T, json>) {
    return json::object();
  } else if constexpr (is_optional<T>::value) {
    return json{{"anyOf", json::array({schema_of<typename T::value_type>(), json{{"type", "null"}}})}};
  } else if constexpr (is_named_values<T>::value) {
    return json{{"type", "object"},
                {"additionalProperties", schema_of<typename T::value_type::second_type>()}};
  } else if constexpr (is_vector<T>::value) {
    return json{{"type", "array"}, {"items", schema_of<typename T::value_type>()}};
  } else if constexpr (is_std_array<T>::value) {
    const auto length = std::tuple_size_v<T>;
    return json{{"type", "array"},
                {"items", schema_of<typename T::value_type>()},
                {"minItems", length},
                {"maxItems", length}};
  } else if constexpr (is_string_map<T>::value) {
    return json{{"type", "object"}, {"additionalProperties", schema_of<typename T::mapped_type>()}};
  } else if constexpr (described_enum<T>) {
    json names = json::array();
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>(
        [&](auto e) { names.push_back(e.name); });
    return json{{"enum", names}};
  } else if constexpr (described_struct<T>) {
    return struct_schema<T>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return json{{"type", "boolean"}};
  } else if constexpr (std::is_integral_v<T>) {
    json schema{{"type", "integer"}};
    // Past 2^53 a JSON reader may round: the bounds say the type's range where it is smaller.
    if constexpr (sizeof(T) < 8) {
      schema["minimum"] = std::numeric_limits<T>::min();
      schema["maximum"] = std::numeric_limits<T>::max();
    } else if constexpr (std::is_unsigned_v<T>) {
      schema["minimum"] = 0;
    }
    return schema;
  } else if constexpr (std::is_floating_point_v<T>) {
    return json{{"type", "number"}};
  } else {
    static_assert(std::is_same_v<T, std::string>, "a document field of a type kopt cannot describe");
    return json{{"type", "string"}};
  }
}

}  // namespace document_detail

// The JSON Schema (2020-12) of document T, titled `title`.
template <typename T>
json json_schema_of(const std::string& title) {
  json schema = json{{"$schema", "https://json-schema.org/draft/2020-12/schema"}, {"title", title}};
  schema.update(document_detail::schema_of<T>());
  return schema;
}

}  // namespace kopt
