#pragma once
// What kopt will do with a kernel file: its backend, solve()'s parameters, the value of
// every scalar, and for every buffer its role, element count (and the rule that gave it)
// and how its contents are drawn. `kopt inspect` shows it; the harness allocates from it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_io.h"
#include "kernel/annotation.h"
#include "kernel/backend.h"
#include "kernel/dimensions.h"
#include "kernel/scalar_binding.h"
#include "kernel/signature.h"
#include "kernel/value_distribution.h"

namespace kopt::kernel {

// Default sizes when a buffer has no annotated count and no --ptr-size is given, as in the
// Python toolkit.
constexpr int64_t default_elements_without_integers = 1'048'576;
constexpr int64_t default_elements_cap = 268'435'456;  // 256 Mi elements

enum class size_rule_kind {
  annotation,         // NAME[EXPR] in the source
  ptr_size_flag,      // --ptr-size
  no_integer_scalars, // 1,048,576
  single_integer,     // the one integer scalar's value
  two_largest,        // product of the two largest integer scalars
};
std::string_view to_string(size_rule_kind kind);

struct size_rule {
  size_rule_kind kind = size_rule_kind::annotation;
  bool capped = false;         // a default size above default_elements_cap, cut to it
  std::string expression;      // annotation: "M*K"
  int line = 0;                // annotation: its line
  std::string description;     // "annotation C[M*N] (line 3)", "--ptr-size", ...
};

struct buffer_spec {
  parameter param;
  buffer_role role = buffer_role::out;
  std::string role_source;  // "const pointer", "non-const pointer", "annotation (line 3)"
  int64_t elements = 0;
  int64_t bytes = 0;        // elements * element size
  size_rule rule;
  value_distribution values;  // for in and inout buffers; out buffers are poisoned
};

struct kernel_plan {
  std::filesystem::path file;
  kernel::backend backend = backend::cuda;
  std::string backend_reason;          // "file extension .cu", "--backend", ...
  std::optional<signature> solve;      // absent for Triton: buffers come from setup()
  std::vector<buffer_spec> buffers;    // solve()'s pointer parameters, in order
  std::vector<bound_scalar> scalars;   // solve()'s scalar parameters, in order
  std::vector<dimension_arg> passed_through;  // Triton: dimensions handed to setup() unchecked
  bool has_annotation = false;
  int64_t total_bytes = 0;             // [bytes] of device memory for the buffers
  std::vector<std::string> notes;
};

// The whole front end: backend, signature, annotation, dimensions, sizes and values.
// `file` names the kernel (its extension picks the backend); `source` is its text.
// `ptr_size` is --ptr-size; `own_flag_names` are kopt's flag names without dashes; `defines`
// the -D definitions the kernel is built with (they pick among #if variants of solve():
// conditional_source.h). Throws kopt::error for anything a user must fix.
kernel_plan plan_kernel(const std::filesystem::path& file, std::string_view source,
                        std::optional<backend> requested, const std::vector<dimension_arg>& dims,
                        std::optional<int64_t> ptr_size,
                        const std::vector<std::string>& own_flag_names,
                        const std::vector<std::string>& defines = {});

// The plan as JSON (without the schema key; `kopt inspect --json` adds it).
json to_json(const kernel_plan& plan);

}  // namespace kopt::kernel
