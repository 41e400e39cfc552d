#pragma once
// A kernel with a configuration written in. A CUDA or CUTLASS kernel gets `#ifndef X /
// #define X V / #endif` for each tune macro before its own text, so the file builds with those
// values and a -D given on the command line still wins. A Triton module gets, after its own
// text, the pin of python/kopt_runtime/triton_pin.py and its call with the values: its
// @triton.autotune kernels then launch that one configuration, and Triton's search never runs.

#include <filesystem>
#include <string>
#include <string_view>

#include "kernel/backend.h"
#include "kernel/tune_space.h"

namespace kopt::tune {

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration,
                         kernel::backend backend);

// The same for a copy written away from `kernel_file`'s folder (a tune's configurations/, the
// fastest two and the winner in its run folder), so that the copy still finds the kernel's own
// files: a Triton module gets a line, after its `from __future__` imports (which Python wants
// first), that puts the kernel's folder on Python's import path (`import helpers` of a sibling);
// a CUDA or CUTLASS kernel's `#include "x.cuh"` of a header in its folder names it by its
// absolute path.
std::string tuned_copy_source(std::string_view source, const kernel::tune_configuration& configuration,
                              kernel::backend backend, const std::filesystem::path& kernel_file);

}  // namespace kopt::tune
