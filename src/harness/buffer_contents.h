#pragma once
// Host copies of a set of solve() buffers, one byte vector per buffer in plan order; an empty
// entry stands for a buffer that is not part of the copy (outputs in a set of inputs, say).

#include <cstddef>
#include <vector>

namespace kopt::harness {

using buffer_contents = std::vector<std::vector<std::byte>>;

}  // namespace kopt::harness
