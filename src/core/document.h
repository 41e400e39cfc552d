#pragma once
// Documents defined once. A document is a plain struct whose fields BOOST_DESCRIBE_STRUCT lists;
// its JSON keys are the field names, in that order. From that one list come the writer
// (to_document) and the checking reader (from_document), so the two cannot drift, and a field
// renamed on one side of a process border fails the other side's reader by name.
//
// The reader refuses, naming the field (`kernel.samples_ms[3]`): a missing field (std::optional
// fields may be absent or null), a field the document does not have (unless it is an
// open_document), a value of the wrong type,
// an integer outside its type or a number outside its declared range (document_ranges), an
// enumerator that is not one of the enum's names, a schema other than the type's. Field types:
// bool, integers, double, std::string, described enums (as their names), std::optional,
// std::vector, std::array, std::map<std::string, T> and named_values<T> (objects, sorted or in
// their order), described structs, and `json` for parts that are open by nature (what a library
// reports of itself). Text is parsed with parse_json_checked first.

#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <boost/describe.hpp>
#include <boost/mp11.hpp>

#include "core/document_error.h"
#include "core/enum_names.h"
#include "core/json_io.h"

namespace kopt {

// A top-level document names its schema: `static constexpr std::string_view document_schema =
// "kopt.child_report/v1";` (not listed among the described fields). Its writer puts it first
// and its reader accepts no other.
template <typename T>
concept schema_document = requires {
  { T::document_schema } -> std::convertible_to<std::string_view>;
};

// A document another program writes, which may carry fields kopt does not read (the Python
// toolkit's memory file, the MCP protocol's messages, which grow with each revision):
// `static constexpr bool document_open = true;`. Its reader skips the fields it does not list
// instead of refusing them; it still checks every field it lists.
template <typename T>
concept open_document = requires { requires T::document_open; };

// A number field's allowed range, declared beside the document:
//   template <> inline constexpr auto document_ranges<bench_job> =
//       std::make_tuple(within(&bench_job::warmup, 0, 1e6));
template <typename S, typename M>
struct field_range {
  M S::*member;
  double low;
  double high;
};
template <typename S, typename M>
constexpr field_range<S, M> within(M S::*member, double low, double high) {
  return {member, low, high};
}
template <typename T>
inline constexpr auto document_ranges = std::tuple<>();

// A document whose enum field (its kind) decides which of its optional fields it carries
// declares the table beside it, found by argument-dependent lookup:
//   document_parts_table parts_of_document(const bench_job*);
// Each listed field must be present (not null) in the kinds named for it and absent (or null)
// in every other: a part of another kind is refused by name. The schema carries the table
// ("x-kopt-parts"), so the Python runner's reader applies the same rule.
struct document_parts_table {
  std::string discriminator;  // the enum field, "kind"
  std::string noun;           // what a kind is of, for messages: "a kernel job needs one"
  std::vector<std::pair<std::string, std::vector<std::string>>> parts;  // field, the kinds that have it
};
template <typename T>
concept parted_document = requires(const T* document) {
  { parts_of_document(document) } -> std::same_as<document_parts_table>;
};

// A JSON object whose keys keep their order (phases in the order they ran).
template <typename T>
using named_values = std::vector<std::pair<std::string, T>>;

namespace document_detail {

// The way to a value, for the error: built into text only when a reader refuses.
struct field_path {
  const field_path* parent = nullptr;
  std::string_view key;  // "" for an array element
  std::size_t index = 0;

  std::string text() const;
};

[[noreturn]] void refuse(const field_path* path, std::string problem);
// Applies a document's parts table to the object `in` (its discriminator already read).
void check_parts(const json& in, const document_parts_table& table, const field_path* path);
[[noreturn]] void refuse_type(const field_path* path, const char* expected, const json& found);
void check_range(const field_path* path, double value, double low, double high);

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};
template <typename T>
struct is_std_array : std::false_type {};
template <typename T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <typename T>
struct is_string_map : std::false_type {};
template <typename T>
struct is_named_values : std::false_type {};
template <typename T>
struct is_named_values<std::vector<std::pair<std::string, T>>> : std::true_type {};
template <typename T>
struct is_string_map<std::map<std::string, T>> : std::true_type {};

template <typename T>
constexpr bool described_struct = boost::describe::has_describe_members<T>::value;
template <typename T>
constexpr bool described_enum = boost::describe::has_describe_enumerators<T>::value;

template <typename T>
using members_of =
    boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;

template <typename T>
json write_value(const T& value);
template <typename T>
void read_value(const json& in, T& out, const field_path* path);

template <typename T>
json write_struct(const T& value) {
  json out = json::object();
  if constexpr (schema_document<T>) out["schema"] = std::string(T::document_schema);
  boost::mp11::mp_for_each<members_of<T>>(
      [&](auto member) { out[member.name] = write_value(value.*member.pointer); });
  return out;
}

// The range declared for `member` of S, applied to a number read into it (also each element of
// an optional or a vector of numbers).
template <typename S, typename M>
void check_declared_range(M S::*member, const json& in, const field_path* path) {
  std::apply(
      [&](const auto&... range) {
        (
            [&] {
              if constexpr (std::is_same_v<decltype(range.member), M S::*>) {
                if (range.member != member) return;
                const auto check_one = [&](const json& number, const field_path* at) {
                  if (number.is_number()) check_range(at, number.get<double>(), range.low, range.high);
                };
                if (in.is_array()) {
                  for (std::size_t i = 0; i < in.size(); ++i) {
                    const field_path element{path, "", i};
                    check_one(in[i], &element);
                  }
                } else {
                  check_one(in, path);
                }
              }
            }(),
            ...);
      },
      document_ranges<S>);
}

template <typename T>
void read_struct(const json& in, T& out, const field_path* path) {
  if (!in.is_object()) refuse_type(path, "an object", in);
  if constexpr (schema_document<T>) {
    const auto found = in.find("schema");
    const std::string expected(T::document_schema);
    if (found == in.end() || !found->is_string() || found->template get<std::string>() != expected) {
      const field_path at{path, "schema"};
      refuse(&at, "is " + (found == in.end() ? std::string("missing") : found->dump()) + ", expected \"" +
                      expected + "\" (a document of another kopt version, or not kopt's)");
    }
  }
  std::size_t known = schema_document<T> ? 1 : 0;
  boost::mp11::mp_for_each<members_of<T>>([&](auto member) {
    using field_type = std::remove_cvref_t<decltype(out.*member.pointer)>;
    const field_path at{path, member.name};
    const auto found = in.find(member.name);
    if (found == in.end()) {
      if constexpr (is_optional<field_type>::value) {
        out.*member.pointer = std::nullopt;
        return;
      } else {
        refuse(&at, "is missing");
      }
    }
    ++known;
    read_value(*found, out.*member.pointer, &at);
    check_declared_range(member.pointer, *found, &at);
  });
  if constexpr (parted_document<T>) check_parts(in, parts_of_document(static_cast<const T*>(nullptr)), path);
  if (!open_document<T> && known != in.size()) {
    for (const auto& [key, value] : in.items()) {
      bool listed = schema_document<T> && key == "schema";
      boost::mp11::mp_for_each<members_of<T>>([&](auto member) { listed = listed || key == member.name; });
      if (!listed) {
        const field_path at{path, key};
        refuse(&at, "is not a field of this document (one of another kopt version?)");
      }
    }
  }
}

template <typename T>
json write_value(const T& value) {
  if constexpr (std::is_same_v<T, json>) {
    return value;
  } else if constexpr (is_optional<T>::value) {
    return value ? write_value(*value) : json(nullptr);
  } else if constexpr (is_named_values<T>::value) {
    json out = json::object();
    for (const auto& [key, element] : value) out[key] = write_value(element);
    return out;
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    json out = json::array();
    for (const auto& element : value) out.push_back(write_value(element));
    return out;
  } else if constexpr (is_string_map<T>::value) {
    json out = json::object();
    for (const auto& [key, element] : value) out[key] = write_value(element);
    return out;
  } else if constexpr (described_enum<T>) {
    const char* name = boost::describe::enum_to_string(value, nullptr);
    return name != nullptr ? json(name) : json(nullptr);
  } else if constexpr (described_struct<T>) {
    return write_struct(value);
  } else {
    static_assert(std::is_arithmetic_v<T> || std::is_same_v<T, std::string>,
                  "a document field of a type kopt cannot write");
    return json(value);
  }
}

template <typename T>
void read_value(const json& in, T& out, const field_path* path) {
  if constexpr (std::is_same_v<T, json>) {
    out = in;
  } else if constexpr (is_optional<T>::value) {
    if (in.is_null()) {
      out = std::nullopt;
    } else {
      typename T::value_type value{};
      read_value(in, value, path);
      out = std::move(value);
    }
  } else if constexpr (is_named_values<T>::value) {
    if (!in.is_object()) refuse_type(path, "an object", in);
    out.clear();
    for (const auto& [key, value] : in.items()) {
      const field_path at{path, key};
      typename T::value_type::second_type element{};
      read_value(value, element, &at);
      out.emplace_back(key, std::move(element));
    }
  } else if constexpr (is_vector<T>::value) {
    if (!in.is_array()) refuse_type(path, "an array", in);
    out.clear();
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const field_path at{path, "", i};
      typename T::value_type element{};
      read_value(in[i], element, &at);
      out.push_back(std::move(element));
    }
  } else if constexpr (is_std_array<T>::value) {
    if (!in.is_array() || in.size() != out.size()) {
      refuse_type(path, ("an array of " + std::to_string(out.size())).c_str(), in);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      const field_path at{path, "", i};
      read_value(in[i], out[i], &at);
    }
  } else if constexpr (is_string_map<T>::value) {
    if (!in.is_object()) refuse_type(path, "an object", in);
    out.clear();
    for (const auto& [key, value] : in.items()) {
      const field_path at{path, key};
      read_value(value, out[key], &at);
    }
  } else if constexpr (described_enum<T>) {
    if (!in.is_string()) refuse_type(path, "a string", in);
    if (!boost::describe::enum_from_string(in.get_ref<const std::string&>().c_str(), out)) {
      std::string names;
      boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) {
        names += names.empty() ? "" : ", ";
        names += e.name;
      });
      refuse(path, "is \"" + in.get<std::string>() + "\", not one of " + names);
    }
  } else if constexpr (described_struct<T>) {
    read_struct(in, out, path);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!in.is_boolean()) refuse_type(path, "true or false", in);
    out = in.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!in.is_number_integer()) refuse_type(path, "a whole number", in);
    if (in.is_number_unsigned()) {
      const auto value = in.get<std::uint64_t>();
      if (value > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
        refuse(path, "is " + in.dump() + ", too large for this field");
      }
      out = static_cast<T>(value);
    } else {
      const auto value = in.get<std::int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        if (value < 0) refuse(path, "is " + in.dump() + ", must not be negative");
      } else {
        if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) {
          refuse(path, "is " + in.dump() + ", out of this field's range");
        }
      }
      out = static_cast<T>(value);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!in.is_number()) refuse_type(path, "a number", in);
    const double value = in.get<double>();
    if (!std::isfinite(value)) refuse(path, "is not a finite number");
    out = static_cast<T>(value);
  } else {
    static_assert(std::is_same_v<T, std::string>, "a document field of a type kopt cannot read");
    if (!in.is_string()) refuse_type(path, "a string", in);
    out = in.get<std::string>();
  }
}

}  // namespace document_detail

// A described enumerator's name, as documents spell it.
template <typename E>
requires document_detail::described_enum<E> std::string enum_name(E value) {
  return std::string(enumerator_name(value, "?"));
}

// The document as JSON: the schema first (for a schema_document), then every field in order,
// null where an optional has no value.
template <typename T>
json to_document(const T& value) {
  return document_detail::write_value(value);
}

// The checking reader: a T, or document_error naming the first field that is wrong.
template <typename T>
T from_document(const json& in) {
  T out{};
  document_detail::read_value(in, out, nullptr);
  return out;
}

// The same as a kopt::error for the user: "WHERE: field F: PROBLEM; REMEDY".
template <typename T>
T read_document(const json& in, const std::string& where, const std::string& remedy) {
  try {
    return from_document<T>(in);
  } catch (const document_error& e) {
    throw e.in(where, remedy);
  }
}

// A document file, parsed within parse_json_checked's limits and read by its checking reader.
template <typename T>
T read_document_file(const std::filesystem::path& path, const std::string& remedy) {
  return read_document<T>(read_json_file(path), path.string(), remedy);
}

}  // namespace kopt

// A described enum prints as its name, as documents spell it.
template <typename E>
struct fmt::formatter<E, char, std::enable_if_t<kopt::document_detail::described_enum<E>>>
    : fmt::formatter<std::string_view> {
  auto format(E value, fmt::format_context& context) const {
    return fmt::formatter<std::string_view>::format(kopt::enum_name(value), context);
  }
};
