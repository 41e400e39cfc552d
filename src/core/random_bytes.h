#pragma once
// Secret keys from the operating system's random source (getrandom), for kopt's seals.

#include <cstddef>
#include <string>
#include <string_view>

namespace kopt {

// `count` random bytes; a kopt::error naming `what` ("a key for ...") when the source fails.
std::string random_bytes(std::size_t count, std::string_view what);

}  // namespace kopt
