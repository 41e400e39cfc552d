#pragma once
// `kopt: flops=EXPR` in a reference (a comment of any language: `# kopt: flops=2*M*N*K`): the
// FLOPs the problem takes, an integer expression of its dimensions (kernel/expression.h), for
// the compute side of the speed-of-light bound (measure/speed_of_light.h).

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "kernel/dimensions.h"

namespace kopt::kernel {

// The FLOPs at `dims`; none when the text has no `kopt: flops=`. Throws kopt::error naming the
// file and line for a malformed expression, a name that is no dimension given (or not an
// integer), an overflow, or a second annotation.
std::optional<double> annotated_flops(const std::filesystem::path& file, std::string_view text,
                                      const std::vector<dimension_arg>& dims);

}  // namespace kopt::kernel
