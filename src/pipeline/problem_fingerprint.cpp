#include "pipeline/problem_fingerprint.h"

#include "core/hash.h"
#include "core/json_io.h"

namespace kopt::pipeline {
namespace {

// The plan's JSON without where things were written in the source.
json without_provenance(json node) {
  if (node.is_object()) {
    for (const char* key : {"line", "role_source", "source", "given_as", "type", "index", "size_rule"}) {
      node.erase(key);
    }
    for (auto& [key, value] : node.items()) value = without_provenance(value);
  } else if (node.is_array()) {
    for (auto& value : node) value = without_provenance(value);
  }
  return node;
}

}  // namespace

std::string problem_sha256(const kernel::kernel_plan& plan) {
  const json whole = kernel::to_json(plan);
  json problem = json::object();
  if (whole["solve"].is_object()) problem["parameters"] = without_provenance(whole["solve"]["parameters"]);
  if (whole.contains("buffers")) problem["buffers"] = without_provenance(whole["buffers"]);  // setup()'s tensors
  problem["dimensions"] = whole["dimensions"];
  return sha256_hex(json_text(problem, -1));
}

}  // namespace kopt::pipeline
