#pragma once
// Host copies of a set of solve() buffers, one byte vector per buffer in plan order; an empty
// entry stands for a buffer that is not part of the copy (outputs in a set of inputs, say).

#include <cstddef>
#include <span>
#include <vector>

namespace kopt::harness {

using buffer_contents = std::vector<std::vector<std::byte>>;

// Views of such a set, wherever its bytes live (a host copy, a mapped file).
using buffer_views = std::vector<std::span<const std::byte>>;

}  // namespace kopt::harness
