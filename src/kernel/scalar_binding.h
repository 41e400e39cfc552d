#pragma once
// The dimensions the user gave, bound to solve()'s scalar parameters and parsed against
// their types: integers for integer parameters, numbers for float and double ones.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "kernel/dimensions.h"
#include "kernel/signature.h"

namespace kopt::kernel {

// An integer parameter's value is exact; a floating one is a double.
using scalar_value = std::variant<int64_t, double>;

struct bound_scalar {
  parameter param;
  scalar_value value;
  std::string text;           // as typed
  bool via_dim_flag = false;  // given as --dim NAME=VALUE
};

struct scalar_binding {
  std::vector<bound_scalar> scalars;  // in solve()'s order
  std::vector<std::string> notes;     // e.g. a name that collides with a kopt flag, set via --dim
};

// Throws kopt::error for a dimension that names no scalar of solve(), a scalar without a
// value, a value that does not parse or does not fit the parameter's type, and a scalar
// named like one of kopt's own flags (`own_flag_names`, without dashes) that was not set
// through --dim.
scalar_binding bind_scalars(const signature& solve, const std::vector<dimension_arg>& dims,
                            const std::vector<std::string>& own_flag_names);

// How the user wrote (or should write) a dimension: "--N=4096" or "--dim seed=7".
std::string spell_dimension(const dimension_arg& arg);

}  // namespace kopt::kernel
