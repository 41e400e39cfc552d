#pragma once
// A Triton kernel's problem, as the reference side defined it: what setup() returned (from the
// reference module's setup() when it has one, else from the kernel module's, always run in a
// process of its own, never in the kernel's: pipeline/triton_problem_step.h), for each
// validation seed. The parent writes it into every measuring child's job, so each child plans
// the same buffers from it: one per tensor, covering the storage its view reaches, in setup()'s
// order. The tensors' bytes stay in files (`seed_<s>/<name>.bin`), with digests the parent took
// before the kernel's process started: the reference's process checks them, so a kernel cannot
// change the inputs the reference is given.
//
// Timed calls get fresh inputs from kopt's device generator, drawn like setup()'s: `values` is
// the distribution the parent fitted to what setup() returned (triton_distribution.h).

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "harness/buffer_contents.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct triton_tensor {
  std::string name;
  std::string dtype;                  // kopt's element type name ("float32", "bfloat16", ...)
  std::vector<std::int64_t> shape;    // [elements] per dimension
  std::vector<std::int64_t> strides;  // [elements] per dimension
  std::int64_t span = 0;              // [elements] of storage the view reaches
  kernel::buffer_role role = kernel::buffer_role::in;
  kernel::value_distribution values;  // the timed calls' fresh inputs (in and inout tensors)
};

struct triton_problem {
  std::filesystem::path dir;          // seed_<s>/<name>.bin for every tensor and seed
  std::string owner;                  // "reference" or "kernel": whose setup() it is
  std::string module;                 // that module's path
  std::vector<std::uint64_t> seeds;   // the validation seeds setup() was called with
  std::vector<std::string> order;     // setup()'s inputs, tensors and scalars, in its order
  std::vector<triton_tensor> tensors;
  json scalars = json::object();      // the non-tensor inputs (numbers, bools, strings, null)
  std::map<std::string, std::string> digests;  // "seed_0/x.bin" → SHA-256 of the file
};

json to_json(const triton_problem& problem);
// A tensor's name, element type, shape, strides, span and role from its JSON (the problem's,
// or the problem step's answer); not its values. Throws json::exception when malformed.
triton_tensor triton_tensor_layout_from_json(const json& tensor);
// Throws kopt::error on a malformed document.
triton_problem triton_problem_from_json(const json& document);

// "seed_3/x.bin": where a tensor's bytes for one seed are, relative to the problem's folder.
std::string triton_input_file(std::uint64_t seed, const std::string& tensor);

// The buffers every process plans from the problem: one per tensor, `span` elements.
kernel::kernel_plan plan_of(const triton_problem& problem);

// "" when `declared` (what the kernel module's own setup() returned: {"tensors": [{"name",
// "dtype", "shape", "role"}], "scalars": {...}}) describes the problem; else the first
// difference, for a "problem mismatch:" verdict (EXPLOITS.md #16).
std::string declared_mismatch(const triton_problem& problem, const json& declared);

// Seed `seed`'s bytes of every `in` and `inout` tensor (outputs left empty). With
// `check_digests`, a file whose SHA-256 differs from the parent's throws problem_changed.
struct problem_changed {
  std::string reason;
};
buffer_contents read_triton_inputs(const triton_problem& problem, std::uint64_t seed, bool check_digests);

}  // namespace kopt::harness
