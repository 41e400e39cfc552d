#pragma once
// How the C entry points hand text back: a malloc'ed copy the caller frees with kopt_free.

#include <string>

namespace kopt::harness_abi {

char* copy_out(const std::string& text);

}  // namespace kopt::harness_abi
