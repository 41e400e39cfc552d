#pragma once
// The `#` comments of a Python module, each with its line, so that a Triton module can carry
// kopt annotations (`# kopt: tune(BLOCK_M, 64, 128)`) as a CUDA file does in `//` comments. A
// `#` inside a string literal (quoted, triple-quoted, with escapes) is not a comment.

#include <string_view>
#include <vector>

#include "kernel/tokenizer.h"

namespace kopt::kernel {

std::vector<comment> python_comments(std::string_view source);

}  // namespace kopt::kernel
