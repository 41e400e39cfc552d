#pragma once
// A dimension or scalar value as the user gave it, before it is checked against a kernel.

#include <string>

namespace kopt::kernel {

struct dimension_arg {
  std::string name;
  std::string value;          // as typed; parsed against the parameter's type later
  bool via_dim_flag = false;  // given as --dim NAME=VALUE
};

}  // namespace kopt::kernel
