#pragma once
// A struct written to JSON and read back through one list of {key, member} pairs, for the
// formats whose keys are not the members' names (analysis.json, the compile cache's resource
// entries): the writer and the reader walk the same list, so a key is spelled once and the two
// cannot drift. A document defined anew uses document.h, whose keys are the members' names.
//
//   inline constexpr std::tuple point_keys{json_field{"x_mm", &point::x}, json_field{"y_mm", &point::y}};
//   json j = fields_json(p, point_keys);            // {"x_mm": ..., "y_mm": ...}, in the list's order
//   point q = fields_from<point>(j, point_keys);    // json::exception for a missing key or a wrong type

#include <optional>
#include <tuple>
#include <vector>

#include "core/json_io.h"

namespace kopt {

// One key and the member of S it holds.
template <typename S, typename M>
struct json_field {
  const char* key;
  M S::*member;
};
template <typename S, typename M>
json_field(const char*, M S::*) -> json_field<S, M>;

namespace json_fields_detail {

template <typename M>
json value_json(const M& value) {
  return json(value);
}
template <typename M>
json value_json(const std::optional<M>& value) {
  return json_or_null(value);
}

template <typename M>
void read_value(const json& node, M& out) {
  out = node.get<M>();
}
template <typename M>
void read_value(const json& node, std::optional<M>& out) {
  if (node.is_null()) {
    out.reset();
  } else {
    out = node.get<M>();
  }
}

}  // namespace json_fields_detail

// `value` as an object with the list's keys, in its order; an absent optional as null.
template <typename S, typename Fields>
json fields_json(const S& value, const Fields& fields) {
  json out = json::object();
  std::apply([&](const auto&... f) { ((out[f.key] = json_fields_detail::value_json(value.*f.member)), ...); },
             fields);
  return out;
}

template <typename S, typename Fields>
json fields_json_list(const std::vector<S>& values, const Fields& fields) {
  json out = json::array();
  for (const S& value : values) out.push_back(fields_json(value, fields));
  return out;
}

// Every key of the list read from `node` into `out`, in the list's order; json::exception for
// a missing key or a value of another type (null is an absent optional).
template <typename S, typename Fields>
void read_fields(const json& node, S& out, const Fields& fields) {
  std::apply([&](const auto&... f) { (json_fields_detail::read_value(node.at(f.key), out.*f.member), ...); },
             fields);
}

template <typename S, typename Fields>
S fields_from(const json& node, const Fields& fields) {
  S out;
  read_fields(node, out, fields);
  return out;
}

template <typename S, typename Fields>
std::vector<S> fields_from_list(const json& node, const Fields& fields) {
  std::vector<S> out;
  for (const json& item : node) out.push_back(fields_from<S>(item, fields));
  return out;
}

}  // namespace kopt
