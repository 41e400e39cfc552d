#pragma once
// One parameter of solve() as the source declares it: a typed device pointer (a buffer) or a
// scalar passed by value.

#include <string>

#include "kernel/element_type.h"

namespace kopt::kernel {

struct parameter {
  int index = 0;              // 0-based position in solve()'s parameter list
  std::string name;
  std::string spelled_type;   // as written, spacing normalized: "const float* __restrict__"
  element_type element;
  bool is_pointer = false;
  bool pointee_is_const = false;  // const T* / T const*: the kernel only reads the buffer
  int line = 0;
};

}  // namespace kopt::kernel
