#include "harness/triton_problem.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "kernel/element_type.h"

namespace kopt::harness {
namespace fs = std::filesystem;
using kernel::buffer_role;

namespace {

buffer_role role_named(const std::string& name) {
  if (name == "in") return buffer_role::in;
  if (name == "inout") return buffer_role::inout;
  if (name == "out") return buffer_role::out;
  throw error(fmt::format("unknown tensor role '{}' in a Triton problem", name));
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(fmt::format("the Triton problem's file {} is missing", path.string()));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string triton_input_file(std::uint64_t seed, const std::string& tensor) {
  return fmt::format("seed_{}/{}.bin", seed, tensor);
}

json to_json(const triton_problem& problem) {
  json tensors = json::array();
  for (const auto& t : problem.tensors) {
    tensors.push_back(json{{"name", t.name},
                           {"dtype", t.dtype},
                           {"shape", t.shape},
                           {"strides", t.strides},
                           {"span", t.span},
                           {"role", std::string(kernel::to_string(t.role))},
                           {"values", t.role == buffer_role::out ? json(nullptr) : kernel::to_json(t.values)}});
  }
  return json{{"dir", problem.dir.string()}, {"owner", problem.owner},     {"module", problem.module},
              {"seeds", problem.seeds},      {"order", problem.order},     {"tensors", tensors},
              {"scalars", problem.scalars},  {"digests", problem.digests}};
}

triton_tensor triton_tensor_layout_from_json(const json& t) {
  triton_tensor tensor;
  tensor.name = t.at("name").get<std::string>();
  tensor.dtype = t.at("dtype").get<std::string>();
  tensor.shape = t.at("shape").get<std::vector<std::int64_t>>();
  tensor.strides = t.at("strides").get<std::vector<std::int64_t>>();
  tensor.span = t.at("span").get<std::int64_t>();
  tensor.role = role_named(t.at("role").get<std::string>());
  return tensor;
}

triton_problem triton_problem_from_json(const json& document) {
  try {
    triton_problem problem;
    problem.dir = document.at("dir").get<std::string>();
    problem.owner = document.at("owner").get<std::string>();
    problem.module = document.at("module").get<std::string>();
    problem.seeds = document.at("seeds").get<std::vector<std::uint64_t>>();
    problem.order = document.at("order").get<std::vector<std::string>>();
    problem.scalars = document.at("scalars");
    problem.digests = document.at("digests").get<std::map<std::string, std::string>>();
    for (const auto& t : document.at("tensors")) {
      triton_tensor tensor = triton_tensor_layout_from_json(t);
      if (!t.at("values").is_null()) tensor.values = kernel::value_distribution_from_json(t.at("values"));
      problem.tensors.push_back(std::move(tensor));
    }
    return problem;
  } catch (const json::exception& e) {
    throw error(fmt::format("malformed Triton problem in a bench job: {}", e.what()));
  }
}

kernel::kernel_plan plan_of(const triton_problem& problem) {
  kernel::kernel_plan plan;
  plan.file = problem.module;
  plan.backend = kernel::backend::triton;
  int index = 0;
  for (const auto& t : problem.tensors) {
    const auto element = kernel::element_type_by_name(t.dtype);
    if (!element) throw error(fmt::format("tensor {} has element type {}, which kopt cannot compare", t.name, t.dtype));
    kernel::buffer_spec b;
    b.param.index = index++;
    b.param.name = t.name;
    b.param.element = *element;
    b.param.is_pointer = true;
    b.role = t.role;
    b.role_source = fmt::format("setup() in {}", problem.module);
    b.elements = t.span;
    b.bytes = t.span * element->size_bytes;
    b.values = t.values;
    plan.total_bytes += b.bytes;
    plan.buffers.push_back(std::move(b));
  }
  return plan;
}

std::string declared_mismatch(const triton_problem& problem, const json& declared) {
  const auto describe = [](const std::string& dtype, const json& shape) { return fmt::format("{}{}", dtype, shape.dump()); };
  const json& tensors = declared.at("tensors");
  for (const auto& t : problem.tensors) {
    const auto found = std::find_if(tensors.begin(), tensors.end(), [&](const json& d) { return d.at("name") == t.name; });
    if (found == tensors.end()) return fmt::format("the kernel's setup() has no tensor {}", t.name);
    const std::string expected = describe(t.dtype, json(t.shape));
    const std::string given = describe(found->at("dtype").get<std::string>(), found->at("shape"));
    if (given != expected) {
      return fmt::format("the kernel's setup() makes {} a {} where the {}'s setup() makes it a {}", t.name, given,
                         problem.owner, expected);
    }
    if (found->at("role").get<std::string>() != kernel::to_string(t.role)) {
      return fmt::format("the kernel's setup() makes {} {} where the {}'s setup() makes it {}", t.name,
                         found->at("role").get<std::string>(), problem.owner, kernel::to_string(t.role));
    }
  }
  if (tensors.size() != problem.tensors.size()) {
    return fmt::format("the kernel's setup() returns {} tensors where the {}'s returns {}", tensors.size(),
                       problem.owner, problem.tensors.size());
  }
  const json& scalars = declared.at("scalars");
  for (const auto& [name, value] : problem.scalars.items()) {
    if (!scalars.contains(name) || scalars[name] != value) {
      return fmt::format("the kernel's setup() gives {} = {} where the {}'s setup() gives {}", name,
                         scalars.contains(name) ? scalars[name].dump() : "nothing", problem.owner, value.dump());
    }
  }
  return "";
}

buffer_contents read_triton_inputs(const triton_problem& problem, std::uint64_t seed, bool check_digests) {
  buffer_contents contents(problem.tensors.size());
  for (std::size_t i = 0; i < problem.tensors.size(); ++i) {
    const triton_tensor& t = problem.tensors[i];
    if (t.role == buffer_role::out) continue;
    const std::string relative = triton_input_file(seed, t.name);
    const std::string bytes = file_bytes(problem.dir / relative);
    if (check_digests) {
      const auto expected = problem.digests.find(relative);
      if (expected == problem.digests.end() || sha256_hex(bytes) != expected->second) {
        throw problem_changed{fmt::format("problem tampering: the inputs setup() made for {} (seed {}) changed after "
                                          "kopt recorded them, while the kernel's process ran: a kernel must not write "
                                          "into kopt's files",
                                          t.name, seed)};
      }
    }
    const auto* first = reinterpret_cast<const std::byte*>(bytes.data());
    contents[i].assign(first, first + bytes.size());
  }
  return contents;
}

}  // namespace kopt::harness
