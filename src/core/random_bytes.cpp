#include "core/random_bytes.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {

std::string random_bytes(std::size_t count, std::string_view what) {
  std::string bytes(count, '\0');
  std::size_t got = 0;
  while (got < count) {
    const ssize_t n = ::getrandom(bytes.data() + got, count - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw error(fmt::format("cannot make {}: {}", what, std::strerror(errno)));
    got += static_cast<std::size_t>(n);
  }
  return bytes;
}

}  // namespace kopt
