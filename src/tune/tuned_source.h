#pragma once
// A kernel with a configuration written in: `#ifndef X / #define X V / #endif` for each tune
// macro, before the kernel's own text, so the file builds with those values and a -D given
// on the command line still wins.

#include <string>
#include <string_view>

#include "kernel/tune_space.h"

namespace kopt::tune {

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration);

}  // namespace kopt::tune
