#include "kernel/buffer_plan.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/conditional_source.h"

namespace kopt::kernel {
namespace {

std::string describe_backend_choice(const std::filesystem::path& file, backend chosen,
                                    std::optional<backend> requested) {
  if (requested) return fmt::format("--backend={}", to_string(*requested));
  if (chosen == backend::cutlass) return "includes CUTLASS/CuTe headers";
  return fmt::format("file extension {}", to_lower(file.extension().string()));
}

struct sized {
  int64_t elements = 0;
  size_rule rule;
};

// The Python toolkit's rule for a buffer without an annotated count.
sized default_size(const std::vector<bound_scalar>& scalars, std::optional<int64_t> ptr_size) {
  sized result;
  if (ptr_size) {
    result.elements = *ptr_size;
    result.rule.kind = size_rule_kind::ptr_size_flag;
    result.rule.description = fmt::format("--ptr-size={}", *ptr_size);
    return result;
  }
  std::vector<std::pair<int64_t, std::string>> integers;  // value, name
  for (const auto& s : scalars) {
    if (s.param.element.is_integer()) integers.emplace_back(std::get<int64_t>(s.value), s.param.name);
  }
  std::stable_sort(integers.begin(), integers.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (integers.empty()) {
    result.elements = default_elements_without_integers;
    result.rule.kind = size_rule_kind::no_integer_scalars;
    result.rule.description = fmt::format("default: no integer scalars, {} elements",
                                          format_thousands(default_elements_without_integers));
  } else if (integers.size() == 1) {
    result.elements = integers[0].first;
    result.rule.kind = size_rule_kind::single_integer;
    result.rule.description = fmt::format("default: the only integer scalar, {}", integers[0].second);
  } else {
    result.rule.kind = size_rule_kind::two_largest;
    result.rule.description = fmt::format("default: product of the two largest integer scalars, "
                                          "{}*{}", integers[0].second, integers[1].second);
    if (__builtin_mul_overflow(integers[0].first, integers[1].first, &result.elements)) {
      result.elements = default_elements_cap + 1;  // only the cap matters from here on
    }
  }
  if (result.elements > default_elements_cap) {
    result.elements = default_elements_cap;
    result.rule.capped = true;
    result.rule.description += fmt::format(", capped at {}", format_thousands(default_elements_cap));
  }
  return result;
}

std::string dimension_values(const int_expression& e, const std::map<std::string, int64_t>& dims) {
  std::vector<std::string> parts;
  for (const auto& name : e.names()) {
    if (const auto it = dims.find(name); it != dims.end()) {
      parts.push_back(fmt::format("{}={}", name, it->second));
    }
  }
  return parts.empty() ? std::string{} : fmt::format(" with {}", join(parts, ", "));
}

class planner {
 public:
  planner(kernel_plan& plan, const annotation_set& annotations, std::optional<int64_t> ptr_size)
      : m_plan(plan), m_annotations(annotations), m_ptr_size(ptr_size) {
    for (const auto& s : plan.scalars) {
      if (const auto* value = std::get_if<int64_t>(&s.value)) m_dims[s.param.name] = *value;
    }
    m_lookup = [this](std::string_view name) -> std::optional<int64_t> {
      const auto it = m_dims.find(std::string(name));
      if (it == m_dims.end()) return std::nullopt;
      return it->second;
    };
  }

  buffer_spec plan_buffer(const parameter& p) {
    buffer_spec spec;
    spec.param = p;
    const std::string label = m_plan.file.string();
    if (const auto* role = m_annotations.role_of(p.name)) {
      spec.role = role->role;
      spec.role_source = fmt::format("annotation (line {})", role->line);
    } else {
      spec.role = p.pointee_is_const ? buffer_role::in : buffer_role::out;
      spec.role_source = p.pointee_is_const ? "const pointer" : "non-const pointer";
    }

    std::string where;  // what produced the count, for errors
    if (const auto* size = m_annotations.size_of(p.name)) {
      const std::string written = fmt::format("{}[{}]", p.name, size->count.text());
      where = fmt::format("{}:{}: kopt annotation {}", label, size->line, written);
      try {
        spec.elements = size->count.evaluate(m_lookup);
      } catch (const expression_error& e) {
        throw error(fmt::format("{}: {}{}: use smaller dimensions or fix the expression", where,
                                e.what(), dimension_values(size->count, m_dims)));
      }
      if (spec.elements <= 0) {
        throw error(fmt::format("{} gives buffer {} {} elements{}: a buffer needs at least one "
                                "element",
                                where, p.name, spec.elements, dimension_values(size->count, m_dims)));
      }
      spec.rule.kind = size_rule_kind::annotation;
      spec.rule.expression = size->count.text();
      spec.rule.line = size->line;
      spec.rule.description = fmt::format("annotation {} (line {})", written, size->line);
    } else {
      const sized fallback = default_size(m_plan.scalars, m_ptr_size);
      spec.elements = fallback.elements;
      spec.rule = fallback.rule;
      where = fmt::format("buffer {} ({})", p.name, fallback.rule.description);
      if (spec.elements <= 0) {
        throw error(fmt::format("{} would have {} elements: give positive dimensions, --ptr-size, "
                                "or an annotation // kopt: {}[COUNT]",
                                where, spec.elements, p.name));
      }
    }
    if (__builtin_mul_overflow(spec.elements, int64_t{p.element.size_bytes}, &spec.bytes)) {
      throw error(fmt::format("{}: {} elements of {} bytes overflow a 64-bit byte count: use "
                              "smaller dimensions",
                              where, spec.elements, p.element.size_bytes));
    }

    if (const auto* values = m_annotations.values_of(p.name)) {
      spec.values = evaluate_distribution(*values, p.element, m_lookup, label);
      if (spec.role == buffer_role::out) {
        m_plan.notes.push_back(fmt::format("the values given for {} (line {}) are not used: kopt "
                                           "fills an out buffer with poison; declare inout({}) if "
                                           "solve() reads it",
                                           p.name, values->line, p.name));
      }
    } else {
      spec.values = default_distribution(p.element);
    }
    return spec;
  }

 private:
  kernel_plan& m_plan;
  const annotation_set& m_annotations;
  std::optional<int64_t> m_ptr_size;
  std::map<std::string, int64_t> m_dims;  // integer scalars by name
  int_expression::name_lookup m_lookup;
};

void add_sizing_notes(kernel_plan& plan, const annotation_set& annotations,
                      std::optional<int64_t> ptr_size) {
  std::vector<std::string> unannotated;
  for (const auto& b : plan.buffers) {
    if (b.rule.kind != size_rule_kind::annotation) unannotated.push_back(b.param.name);
  }
  if (plan.buffers.empty()) return;
  if (annotations.sizes.empty()) {
    plan.notes.push_back("no kopt size annotation: buffer sizes follow the default rule; give "
                         "exact sizes with a comment such as // kopt: A[M*K] "
                         "(docs/annotations.md)");
  } else if (!unannotated.empty()) {
    plan.notes.push_back(fmt::format("no annotated size for {}: sized by {}", join(unannotated, ", "),
                                     ptr_size ? "--ptr-size" : "the default rule"));
  } else if (ptr_size) {
    plan.notes.push_back("--ptr-size is not used: every buffer has an annotated size");
  }
}

}  // namespace

std::string_view to_string(size_rule_kind kind) {
  switch (kind) {
    case size_rule_kind::annotation: return "annotation";
    case size_rule_kind::ptr_size_flag: return "ptr_size";
    case size_rule_kind::no_integer_scalars: return "default_no_integer_scalars";
    case size_rule_kind::single_integer: return "default_single_integer";
    case size_rule_kind::two_largest: return "default_two_largest";
  }
  return "unknown";
}

kernel_plan plan_kernel(const std::filesystem::path& file, std::string_view source,
                        std::optional<backend> requested, const std::vector<dimension_arg>& dims,
                        std::optional<int64_t> ptr_size,
                        const std::vector<std::string>& own_flag_names,
                        const std::vector<std::string>& defines) {
  if (ptr_size && *ptr_size <= 0) {
    throw error(fmt::format("--ptr-size={} is not a positive element count: pass e.g. "
                            "--ptr-size=1048576",
                            *ptr_size));
  }
  kernel_plan plan;
  plan.file = file;
  plan.backend = infer_backend(file, source, requested);
  plan.backend_reason = describe_backend_choice(file, plan.backend, requested);
  const std::string label = file.string();

  if (plan.backend == backend::triton) {
    plan.passed_through = dims;
    plan.notes.push_back("Triton kernel: its buffers and scalars come from the module's setup() "
                         "when kopt runs it, so dimensions are passed to setup() unchecked");
    if (ptr_size) plan.notes.push_back("--ptr-size is not used for Triton kernels");
    return plan;
  }

  // What the compiler will see: the #if branches the definitions leave active.
  const token_stream tokens = tokenize(active_source(source, defines).text);
  plan.solve = parse_signature(tokens, label);
  const annotation_set annotations = parse_annotations(tokens.comments, label);
  check_annotations(annotations, *plan.solve, label);
  plan.has_annotation = !annotations.empty();

  scalar_binding binding = bind_scalars(*plan.solve, dims, own_flag_names);
  plan.scalars = std::move(binding.scalars);
  plan.notes = std::move(binding.notes);

  planner buffers(plan, annotations, ptr_size);
  for (const parameter* p : plan.solve->pointers()) {
    plan.buffers.push_back(buffers.plan_buffer(*p));
    if (__builtin_add_overflow(plan.total_bytes, plan.buffers.back().bytes, &plan.total_bytes)) {
      throw error("solve()'s buffers together need more bytes than a 64-bit count holds: use "
                  "smaller dimensions");
    }
  }
  add_sizing_notes(plan, annotations, ptr_size);
  return plan;
}

}  // namespace kopt::kernel
