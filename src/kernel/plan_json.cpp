// to_json(kernel_plan): the machine-readable form of what `kopt inspect` shows.

#include <fmt/format.h>

#include "kernel/buffer_plan.h"

namespace kopt::kernel {
namespace {


json element_json(const element_type& type) {
  return {{"name", type.name},
          {"kind", to_string(type.kind)},
          {"size_bytes", type.size_bytes},
          {"torch_dtype", type.torch_dtype}};
}

json buffer_json(const buffer_spec& b) {
  json out = {{"index", b.param.index},
              {"name", b.param.name},
              {"kind", "buffer"},
              {"type", b.param.spelled_type},
              {"element_type", element_json(b.param.element)},
              {"const", b.param.pointee_is_const},
              {"role", to_string(b.role)},
              {"role_source", b.role_source},
              {"elements", b.elements},
              {"bytes", b.bytes}};
  json rule = {{"kind", to_string(b.rule.kind)},
               {"capped", b.rule.capped},
               {"description", b.rule.description}};
  if (b.rule.kind == size_rule_kind::annotation) {
    rule["expression"] = b.rule.expression;
    rule["line"] = b.rule.line;
  }
  out["size_rule"] = rule;
  // An out buffer is poisoned before each run; its values are never drawn.
  out["values"] = b.role == buffer_role::out ? json("poison") : to_json(b.values);
  return out;
}

json scalar_json(const bound_scalar& s) {
  json value = std::holds_alternative<int64_t>(s.value) ? json(std::get<int64_t>(s.value))
                                                        : json(std::get<double>(s.value));
  return {{"index", s.param.index},
          {"name", s.param.name},
          {"kind", "scalar"},
          {"type", s.param.spelled_type},
          {"element_type", element_json(s.param.element)},
          {"value", value},
          {"given_as", spell_dimension({s.param.name, s.text, s.via_dim_flag})}};
}

}  // namespace

json to_json(const kernel_plan& plan) {
  json out = json::object();
  out["file"] = plan.file.string();
  out["backend"] = to_string(plan.backend);
  out["backend_reason"] = plan.backend_reason;
  if (!plan.solve) {
    out["solve"] = nullptr;
    json dims = json::object();
    for (const auto& d : plan.passed_through) dims[d.name] = d.value;
    out["dimensions"] = dims;
    // A Triton problem's tensors, once setup() made them (harness/triton_problem.h).
    if (!plan.buffers.empty()) {
      json buffers = json::array();
      for (const auto& b : plan.buffers) buffers.push_back(buffer_json(b));
      out["buffers"] = buffers;
    }
  } else {
    // Parameters in solve()'s order, buffers and scalars interleaved as declared.
    std::vector<json> parameters(plan.solve->parameters.size());
    for (const auto& b : plan.buffers) parameters[static_cast<size_t>(b.param.index)] = buffer_json(b);
    for (const auto& s : plan.scalars) parameters[static_cast<size_t>(s.param.index)] = scalar_json(s);
    out["solve"] = {{"line", plan.solve->line}, {"parameters", parameters}};
    json dims = json::object();
    for (const auto& s : plan.scalars) dims[s.param.name] = scalar_json(s)["value"];
    out["dimensions"] = dims;
  }
  out["has_annotation"] = plan.has_annotation;
  out["total_bytes"] = plan.total_bytes;
  out["notes"] = plan.notes;
  return out;
}

}  // namespace kopt::kernel
