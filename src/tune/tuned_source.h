#pragma once
// A kernel with a configuration written in. A CUDA or CUTLASS kernel gets `#ifndef X /
// #define X V / #endif` for each tune macro before its own text, so the file builds with those
// values and a -D given on the command line still wins. A Triton module gets, after its own
// text, the pin of python/kopt_runtime/triton_pin.py and its call with the values: its
// @triton.autotune kernels then launch that one configuration, and Triton's search never runs.

#include <string>
#include <string_view>

#include "kernel/backend.h"
#include "kernel/tune_space.h"

namespace kopt::tune {

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration,
                         kernel::backend backend);

}  // namespace kopt::tune
