#include "pipeline/triton_evidence.h"

#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_io.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(fmt::format("the kernel's measuring process left no {}", path.string()));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

kernel::buffer_role role_named(const std::string& name) {
  if (name == "in") return kernel::buffer_role::in;
  if (name == "inout") return kernel::buffer_role::inout;
  if (name == "out") return kernel::buffer_role::out;
  throw error(fmt::format("unknown tensor role \"{}\" in a Triton kernel's evidence", name));
}

}  // namespace

kernel::kernel_plan plan_from_manifest(const fs::path& dir, const harness::evidence_key& key) {
  const json manifest = read_json_file(dir / harness::folder_name(key) / "tensors.json");
  kernel::kernel_plan plan;
  plan.backend = kernel::backend::triton;
  int index = 0;
  for (const json& t : manifest.at("tensors")) {
    kernel::buffer_spec b;
    b.param.index = index++;
    b.param.name = t.at("name").get<std::string>();
    const std::string dtype = t.at("dtype").get<std::string>();
    const auto element = kernel::element_type_by_name(dtype);
    if (!element) throw error(fmt::format("tensor {} has element type {}, which kopt cannot compare", b.param.name, dtype));
    b.param.element = *element;
    b.param.is_pointer = true;
    b.role = role_named(t.at("role").get<std::string>());
    b.elements = t.at("elements").get<std::int64_t>();
    b.bytes = b.elements * element->size_bytes;
    plan.buffers.push_back(std::move(b));
  }
  return plan;
}

std::optional<std::string> seed_blindness(const fs::path& dir, const std::vector<harness::evidence_key>& keys,
                                          const kernel::kernel_plan& plan, const std::string& module) {
  std::vector<const harness::evidence_key*> seeds;
  for (const auto& key : keys) {
    if (key.what == harness::evidence_key::kind::seed && key.when == "before timing") seeds.push_back(&key);
  }
  if (seeds.size() < 2 || seeds[0]->value == seeds[1]->value) return std::nullopt;
  bool any_input = false;
  for (const auto& b : plan.buffers) {
    if (b.role == kernel::buffer_role::out) continue;
    any_input = true;
    const auto file = [&](const harness::evidence_key& key) {
      return file_bytes(dir / harness::folder_name(key) / (b.param.name + ".bin"));
    };
    if (file(*seeds[0]) != file(*seeds[1])) return std::nullopt;
  }
  if (!any_input) return std::nullopt;
  return fmt::format("seed blindness: setup() in {} returned the same inputs for seeds {} and {}: draw them from the "
                     "seed it is given (setup(..., seed=0) and a torch.Generator seeded with it)",
                     module, seeds[0]->value, seeds[1]->value);
}

}  // namespace kopt::pipeline
