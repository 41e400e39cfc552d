#include "core/escaped_error.h"

#include <filesystem>
#include <new>
#include <regex>

#include <fmt/format.h>

#include "core/json_io.h"

namespace kopt {

error as_reported_error(const std::exception& e) {
  if (const auto* known = dynamic_cast<const error*>(&e)) return *known;
  if (const auto* fs_error = dynamic_cast<const std::filesystem::filesystem_error*>(&e)) {
    // "too many levels of symbolic links: /tmp/run" says what to fix; the operation does not.
    const std::string path = fs_error->path1().empty() ? "a path" : fs_error->path1().string();
    return error(fmt::format("{}: {}: check the path (a link that points to itself, a folder where a file belongs, "
                             "a file kopt may not read)",
                             path, fs_error->code().message()));
  }
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    return error("out of memory: an input far larger than kopt expects, or a machine without memory to spare");
  }
  if (dynamic_cast<const json::exception*>(&e) != nullptr) {
    return error(fmt::format("a document kopt read held a value kopt did not check ({}): a kopt bug, please report "
                             "it with the file",
                             e.what()));
  }
  if (dynamic_cast<const std::regex_error*>(&e) != nullptr) {
    return error(fmt::format("a regular expression kopt did not check ({}): a kopt bug, please report it", e.what()));
  }
  return error(fmt::format("unexpected failure: {} (a kopt bug, please report it with the command line)", e.what()));
}

error current_exception_as_error() {
  try {
    throw;
  } catch (const std::exception& e) {
    return as_reported_error(e);
  } catch (...) {
    return error("unexpected failure of an unknown kind (a kopt bug, please report it with the command line)");
  }
}

}  // namespace kopt
