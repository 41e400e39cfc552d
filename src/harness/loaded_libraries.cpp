#include "harness/loaded_libraries.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <sstream>

namespace kopt::harness {

std::vector<std::string> compute_libraries_in(std::string_view maps_text) {
  // File-name prefixes of libraries that compute (not the runtime or driver every kernel uses).
  constexpr std::array<std::string_view, 12> known = {"libcublas",   "libcublasLt", "libcudnn",  "libcufft",
                                                      "libcurand",   "libcusparse", "libcusolver", "libnccl",
                                                      "libtorch",    "libc10_cuda", "libcutensor", "libnvrtc"};
  std::set<std::string> found;
  std::size_t begin = 0;
  while (begin < maps_text.size()) {
    std::size_t end = maps_text.find('\n', begin);
    if (end == std::string_view::npos) end = maps_text.size();
    const std::string_view line = maps_text.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t slash = line.rfind('/');
    if (slash == std::string_view::npos) continue;
    const std::string_view file = line.substr(slash + 1);
    for (const std::string_view prefix : known) {
      if (file.starts_with(prefix) && file.find(".so") != std::string_view::npos) found.emplace(file);
    }
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> loaded_compute_libraries() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return compute_libraries_in(text.str());
}

std::vector<std::string> compute_libraries_loaded_since(const std::vector<std::string>& baseline) {
  std::vector<std::string> added;
  for (const std::string& library : loaded_compute_libraries()) {
    if (std::find(baseline.begin(), baseline.end(), library) == baseline.end()) added.push_back(library);
  }
  return added;
}

}  // namespace kopt::harness
