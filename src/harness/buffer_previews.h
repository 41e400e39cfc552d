#pragma once
// A look at the buffers when there is no reference to judge the outputs against, as the Python
// toolkit printed one: the first few elements of every input and output of the first validation
// call, after the version ran, so that a user sees at once that the outputs are numbers of the
// right size and not zeros, poison or NaN.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "harness/device_buffers.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct buffer_preview {
  std::string buffer;               // the parameter's name
  std::string role;                 // in, out, inout
  std::string type;                 // "float32"
  std::int64_t elements = 0;        // the buffer's whole length
  std::vector<std::string> first;   // its first elements, as "%.6g" (nan, inf as such)
};
BOOST_DESCRIBE_STRUCT(buffer_preview, (), (buffer, role, type, elements, first))

inline constexpr std::size_t preview_elements = 8;

// Every buffer of the plan, in order; downloads only the elements shown.
std::vector<buffer_preview> preview_buffers(const kernel::kernel_plan& plan, const device_buffers& buffers);

}  // namespace kopt::harness
