#pragma once
// `--check-dims`: extra shapes every version must also pass the judge at (validation only, no
// timing), so that a version correct only at the benchmarked shape (a softmax that assumes
// cols is a multiple of 1024) is rejected instead of winning.
//
// One value is one shape: dimension flags separated by spaces, written as on kopt's command
// line (`--NAME=VALUE`, or `--dim NAME=VALUE` for a name that collides with one of kopt's
// flags), e.g. "--rows=1000 --cols=1000". A shape names only the dimensions it changes; the
// others keep their benchmarked values. Each name must be one of the benchmarked dimensions.

#include <string>
#include <string_view>
#include <vector>

#include "kernel/dimensions.h"

namespace kopt::kernel {

struct check_shape {
  std::vector<dimension_arg> dims;  // every benchmarked dimension, with this shape's values
  std::string label;  // its flags as they would be typed again: "--rows=1000 --cols=1000"
};

// Throws kopt::error (a usage error, one line) for a malformed value: empty, a word that is
// not a dimension flag, a name given twice, a name that is not a benchmarked dimension, or a
// shape that changes nothing.
check_shape parse_check_dims(std::string_view text, const std::vector<dimension_arg>& benchmarked);

// Every --check-dims value in order; also refuses the same shape twice.
std::vector<check_shape> parse_check_dims_list(const std::vector<std::string>& values,
                                               const std::vector<dimension_arg>& benchmarked);

// Dimension flags as a run's manifest keeps them ("--rows=4096 --dim seed=3"), read back.
std::vector<dimension_arg> parse_dimension_flags(std::string_view text);

// The shapes' labels, in order: what the run freezes.
std::vector<std::string> check_labels(const std::vector<check_shape>& shapes);

}  // namespace kopt::kernel
