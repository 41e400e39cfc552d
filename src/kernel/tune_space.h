#pragma once
// The parameters kopt tune searches: a kernel's tune(MACRO, V1, V2, ...) annotations, and the
// restrict(CONDITION) annotations that rule configurations out at given dimensions
// (docs/annotations.md). A configuration sets each macro with -D MACRO=VALUE.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json_io.h"
#include "kernel/annotation.h"
#include "kernel/backend.h"
#include "kernel/buffer_plan.h"

namespace kopt::kernel {

struct tune_parameter {
  std::string name;
  std::vector<int64_t> values;
};

struct tune_configuration {
  std::vector<std::pair<std::string, int64_t>> values;  // in the order the parameters are declared

  std::string text() const;                  // "BLOCK=128 VEC=4"
  std::vector<std::string> defines() const;  // {"BLOCK=128", "VEC=4"}: -D's arguments
};

class tune_space {
 public:
  // More configurations than this, before restrictions, are refused: declare fewer values.
  static constexpr std::uint64_t max_configurations = 1'000'000;

  using dimension_lookup = std::function<std::optional<int64_t>(std::string_view name)>;

  tune_space() = default;
  explicit tune_space(const annotation_set& annotations);

  bool empty() const { return m_parameters.empty(); }
  const std::vector<tune_parameter>& parameters() const { return m_parameters; }
  const std::vector<restrict_item>& restrictions() const { return m_restrictions; }
  // The product of the parameters' value counts, before restrictions (saturating).
  std::uint64_t size() const;

  // Every configuration that passes every restriction with `dimensions` (solve()'s integer
  // scalars by name), the last parameter changing fastest. Throws kopt::error (naming
  // `file_label`, the line and the configuration) when size() exceeds max_configurations or a
  // restriction cannot be evaluated (an overflow, a division by zero).
  std::vector<tune_configuration> allowed(const dimension_lookup& dimensions,
                                          std::string_view file_label) const;

 private:
  std::vector<tune_parameter> m_parameters;
  std::vector<restrict_item> m_restrictions;
};

// The space a kernel file declares (the annotations in its comments; check_annotations, which
// planning runs, has checked them against solve()).
tune_space read_tune_space(std::string_view source, std::string_view file_label);
// The same for a Triton module, from its `# kopt:` comments: each parameter names a constexpr of
// its @triton.autotune configs, num_warps/num_stages/num_ctas, `config` (which of the autotuner's
// configs to start from) or a module-level integer (python/kopt_runtime/triton_pin.py).
tune_space read_python_tune_space(std::string_view source, std::string_view file_label);
// One of the two, as `language`'s files write their comments.
tune_space read_tune_space(std::string_view source, std::string_view file_label, backend language);

// A planned kernel's integer dimensions by name, for allowed(): solve()'s, or those a Triton
// module's setup() is given.
tune_space::dimension_lookup dimensions_of(const kernel_plan& plan);

// The tune space a planned kernel declares, and the configurations that pass the restrictions at
// the plan's dimensions (a Triton module's: the integer dimensions given for its setup()).
struct planned_tune_space {
  tune_space space;
  std::vector<tune_configuration> allowed;
};
planned_tune_space plan_tune_space(const kernel_plan& plan, std::string_view source);

// {"parameters": [{"name", "values"}], "restrictions": ["..."], "configurations": N, "allowed": M}
json to_json(const planned_tune_space& tune);

// What `kopt inspect --json` and MCP's inspect give: to_json(plan), with a "tune" object when the
// kernel declares tune parameters.
json inspect_document(const kernel_plan& plan, const planned_tune_space& tune);

}  // namespace kopt::kernel
