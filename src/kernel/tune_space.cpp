#include "kernel/tune_space.h"

#include <charconv>
#include <limits>
#include <variant>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/python_comments.h"
#include "kernel/tokenizer.h"

namespace kopt::kernel {

std::string tune_configuration::text() const {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) parts.push_back(fmt::format("{}={}", name, value));
  return join(parts, " ");
}

std::vector<std::string> tune_configuration::defines() const {
  std::vector<std::string> out;
  for (const auto& [name, value] : values) out.push_back(fmt::format("{}={}", name, value));
  return out;
}

tune_space::tune_space(const annotation_set& annotations) : m_restrictions(annotations.restrictions) {
  for (const tune_item& item : annotations.tunes) m_parameters.push_back({item.name, item.values});
}

std::uint64_t tune_space::size() const {
  if (m_parameters.empty()) return 0;
  std::uint64_t product = 1;
  for (const tune_parameter& p : m_parameters) {
    if (__builtin_mul_overflow(product, p.values.size(), &product))
      return std::numeric_limits<std::uint64_t>::max();
  }
  return product;
}

std::vector<tune_configuration> tune_space::allowed(const dimension_lookup& dimensions,
                                                    std::string_view file_label) const {
  if (m_parameters.empty()) return {};
  if (size() > max_configurations) {
    throw error(
        fmt::format("{}: the tune() parameters make {} configurations, more than kopt tune takes ({}): "
                    "declare fewer values",
                    file_label, size(), max_configurations));
  }
  std::vector<tune_configuration> out;
  std::vector<std::size_t> digit(m_parameters.size(), 0);  // an odometer over the value lists
  while (true) {
    tune_configuration c;
    for (std::size_t i = 0; i < m_parameters.size(); ++i)
      c.values.emplace_back(m_parameters[i].name, m_parameters[i].values[digit[i]]);
    const auto lookup = [&](std::string_view name) -> std::optional<int64_t> {
      for (const auto& [parameter, value] : c.values) {
        if (parameter == name) return value;
      }
      return dimensions(name);
    };
    bool passes = true;
    for (const restrict_item& r : m_restrictions) {
      try {
        passes = r.condition.evaluate(lookup) != 0;
      } catch (const expression_error& e) {
        throw error(fmt::format("{}:{}: restrict({}) at {}: {}", file_label, r.line, r.condition.text(),
                                c.text(), e.what()));
      }
      if (!passes) break;
    }
    if (passes) out.push_back(std::move(c));
    std::size_t i = m_parameters.size();
    while (i > 0 && ++digit[i - 1] == m_parameters[i - 1].values.size()) digit[--i] = 0;
    if (i == 0) break;
  }
  return out;
}

tune_space read_tune_space(std::string_view source, std::string_view file_label) {
  return tune_space(parse_annotations(tokenize(source).comments, file_label));
}

tune_space read_python_tune_space(std::string_view source, std::string_view file_label) {
  std::vector<comment> annotations;
  for (comment& c : python_comments(source)) {
    // `# kopt: flops=EXPR` is a reference's figure (flops_annotation.h), read apart.
    const std::string_view text = trim(c.text);
    if (text.starts_with("kopt:") && trim(text.substr(5)).starts_with("flops")) continue;
    annotations.push_back(std::move(c));
  }
  return tune_space(parse_annotations(annotations, file_label));
}

tune_space read_tune_space(std::string_view source, std::string_view file_label, backend language) {
  return language == backend::triton ? read_python_tune_space(source, file_label)
                                     : read_tune_space(source, file_label);
}

tune_space::dimension_lookup dimensions_of(const kernel_plan& plan) {
  return [&plan](std::string_view name) -> std::optional<int64_t> {
    for (const bound_scalar& s : plan.scalars) {
      if (s.param.name == name && std::holds_alternative<int64_t>(s.value)) return std::get<int64_t>(s.value);
    }
    // A Triton module's dimensions go to its setup() as given: an integer one can restrict.
    for (const dimension_arg& d : plan.passed_through) {
      int64_t value = 0;
      const char* end = d.value.data() + d.value.size();
      if (d.name == name && std::from_chars(d.value.data(), end, value).ptr == end) return value;
    }
    return std::nullopt;
  };
}

planned_tune_space plan_tune_space(const kernel_plan& plan, std::string_view source) {
  // A CUDA file without solve() has nothing to bench; a Triton module never has one.
  if (!plan.solve && plan.backend != backend::triton) return {};
  const std::string label = plan.file.string();
  planned_tune_space planned{read_tune_space(source, label, plan.backend), {}};
  planned.allowed = planned.space.allowed(dimensions_of(plan), label);
  return planned;
}

json to_json(const planned_tune_space& tune) {
  json parameters = json::array();
  for (const tune_parameter& p : tune.space.parameters())
    parameters.push_back(json{{"name", p.name}, {"values", p.values}});
  json restrictions = json::array();
  for (const restrict_item& r : tune.space.restrictions()) restrictions.push_back(r.condition.text());
  return json{{"parameters", std::move(parameters)},
              {"restrictions", std::move(restrictions)},
              {"configurations", tune.space.size()},
              {"allowed", tune.allowed.size()}};
}

json inspect_document(const kernel_plan& plan, const planned_tune_space& tune) {
  json document = to_json(plan);
  if (!tune.space.empty()) document["tune"] = to_json(tune);
  return document;
}

}  // namespace kopt::kernel
