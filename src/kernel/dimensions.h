#pragma once
// A dimension or scalar value as the user gave it, before it is checked against a kernel.

#include <string>

#include <boost/describe.hpp>

namespace kopt::kernel {

struct dimension_arg {
  std::string name;
  std::string value;          // as typed; parsed against the parameter's type later
  bool via_dim_flag = false;  // given as --dim NAME=VALUE
};
BOOST_DESCRIBE_STRUCT(dimension_arg, (), (name, value, via_dim_flag))

}  // namespace kopt::kernel
