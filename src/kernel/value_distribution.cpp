#include "kernel/value_distribution.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"

namespace kopt::kernel {
namespace {

class evaluator {
 public:
  evaluator(const values_item& item, const element_type& type,
            const int_expression::name_lookup& dimensions, std::string_view file_label)
      : m_item(item), m_type(type), m_dimensions(dimensions), m_file(file_label) {}

  // An integer buffer's value: exact, and within the element type.
  int64_t integer(const annotation_number& number) const {
    const int64_t value = evaluate(number);
    if (value < m_type.min_value() || value > m_type.max_value()) {
      const std::string shown = number.text == std::to_string(value)
                                    ? number.text
                                    : fmt::format("{} = {}", number.text, value);
      fail(fmt::format("{} does not fit in {} ({} to {})", shown, m_type.name, m_type.min_value(),
                       m_type.max_value()));
    }
    return value;
  }

  double floating(const annotation_number& number) const {
    if (number.floating) return *number.floating;
    return static_cast<double>(evaluate(number));
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw error(fmt::format("{}:{}: kopt annotation {} for buffer {}: {}", m_file, m_item.line,
                            m_item.text, m_item.buffer, problem));
  }

  int64_t evaluate(const annotation_number& number) const {
    // check_annotations has ruled out floating literals for integer buffers.
    try {
      return number.integer->evaluate(m_dimensions);
    } catch (const expression_error& e) {
      fail(fmt::format("{}: {}", number.text, e.what()));
    }
  }

 private:
  const values_item& m_item;
  const element_type& m_type;
  const int_expression::name_lookup& m_dimensions;
  std::string_view m_file;
};

}  // namespace

double to_double(const element_value& value) {
  return std::visit([](auto v) { return static_cast<double>(v); }, value);
}

std::string format_value(const element_value& value) {
  if (const auto* integer = std::get_if<int64_t>(&value)) return fmt::format("{}", *integer);
  return fmt::format("{}", std::get<double>(value));
}

std::string value_distribution::describe() const {
  switch (kind) {
    case distribution_kind::uniform:
      return fmt::format("uniform [{}, {})", format_value(low), format_value(high));
    case distribution_kind::choice: {
      std::vector<std::string> texts;
      for (const auto& value : choices) texts.push_back(format_value(value));
      return fmt::format("one of {{{}}}", join(texts, ", "));
    }
    case distribution_kind::normal:
      return fmt::format("normal(mean {}, std {})", mean, stddev);
  }
  return "unknown";
}

value_distribution default_distribution(const element_type& type) {
  value_distribution d;
  switch (type.kind) {
    case element_kind::floating:
      d.low = -1.0;
      d.high = 1.0;
      break;
    case element_kind::signed_integer:
      d.low = int64_t{-100};
      d.high = int64_t{100};
      break;
    case element_kind::unsigned_integer:
      d.low = int64_t{0};
      d.high = int64_t{100};
      break;
    case element_kind::boolean:
      d.kind = distribution_kind::choice;
      d.choices = {int64_t{0}, int64_t{1}};
      break;
  }
  return d;
}

value_distribution evaluate_distribution(const values_item& item, const element_type& type,
                                         const int_expression::name_lookup& dimensions,
                                         std::string_view file_label) {
  const evaluator eval(item, type, dimensions, file_label);
  value_distribution d;
  d.kind = item.kind;
  d.from_annotation = true;
  d.line = item.line;
  const bool exact = !type.is_floating();
  switch (item.kind) {
    case distribution_kind::uniform: {
      if (exact) {
        const int64_t low = eval.integer(item.args[0]);
        // The range is half-open: its largest value, high - 1, must fit the type.
        const int64_t high = eval.evaluate(item.args[1]);
        if (high <= low) eval.fail(fmt::format("the range [{}, {}) is empty", low, high));
        if (high - 1 > type.max_value()) {
          eval.fail(fmt::format("values up to {} do not fit in {} (at most {})", high - 1,
                                type.name, type.max_value()));
        }
        d.low = low;
        d.high = high;
      } else {
        const double low = eval.floating(item.args[0]), high = eval.floating(item.args[1]);
        if (!(high > low)) eval.fail(fmt::format("the range [{}, {}) is empty", low, high));
        d.low = low;
        d.high = high;
      }
      break;
    }
    case distribution_kind::choice:
      for (const auto& number : item.args) {
        d.choices.push_back(exact ? element_value{eval.integer(number)}
                                  : element_value{eval.floating(number)});
      }
      break;
    case distribution_kind::normal:
      d.mean = eval.floating(item.args[0]);
      d.stddev = eval.floating(item.args[1]);
      if (!(d.stddev > 0.0)) eval.fail(fmt::format("the standard deviation {} is not positive", d.stddev));
      break;
  }
  return d;
}

}  // namespace kopt::kernel

namespace kopt::kernel {
namespace {

json value_json(const element_value& value) {
  if (const auto* integer = std::get_if<int64_t>(&value)) return *integer;
  return std::get<double>(value);
}

element_value value_from(const json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  return value.get<double>();
}

}  // namespace

json to_json(const value_distribution& d) {
  json out = json::object();
  out["kind"] = to_string(d.kind);
  switch (d.kind) {
    case distribution_kind::uniform:
      out["low"] = value_json(d.low);
      out["high"] = value_json(d.high);  // exclusive
      break;
    case distribution_kind::choice: {
      json values = json::array();
      for (const auto& v : d.choices) values.push_back(value_json(v));
      out["values"] = values;
      break;
    }
    case distribution_kind::normal:
      out["mean"] = d.mean;
      out["std"] = d.stddev;
      break;
  }
  out["source"] = d.from_annotation ? "annotation" : d.fitted_to_setup ? "setup()" : "default";
  if (d.from_annotation) out["line"] = d.line;
  return out;
}

value_distribution value_distribution_from_json(const json& document) {
  try {
    value_distribution d;
    const std::string kind = document.at("kind").get<std::string>();
    if (kind == to_string(distribution_kind::uniform)) {
      d.kind = distribution_kind::uniform;
      d.low = value_from(document.at("low"));
      d.high = value_from(document.at("high"));
    } else if (kind == to_string(distribution_kind::choice)) {
      d.kind = distribution_kind::choice;
      for (const auto& v : document.at("values")) d.choices.push_back(value_from(v));
    } else if (kind == to_string(distribution_kind::normal)) {
      d.kind = distribution_kind::normal;
      d.mean = document.at("mean").get<double>();
      d.stddev = document.at("std").get<double>();
    } else {
      throw error(fmt::format("unknown value distribution \"{}\"", kind));
    }
    d.fitted_to_setup = document.value("source", "") == "setup()";
    return d;
  } catch (const json::exception& e) {
    throw error(fmt::format("malformed value distribution {}: {}", json_text(document, -1), e.what()));
  }
}

}  // namespace kopt::kernel
