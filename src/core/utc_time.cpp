#include "core/utc_time.h"

#include <ctime>

namespace kopt {
namespace {

std::string format_now(const char* pattern) {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, pattern, &parts);
  return text;
}

}  // namespace

std::string utc_timestamp() { return format_now("%Y-%m-%dT%H:%M:%SZ"); }

std::string utc_compact_timestamp() { return format_now("%Y%m%d_%H%M%S"); }

}  // namespace kopt
