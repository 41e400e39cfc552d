#include "pipeline/reference_environment.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>

extern char** environ;

namespace kopt::pipeline {
namespace {

// Where things are and who the user is; nothing here changes what a computation gives.
constexpr std::array<std::string_view, 20> kept_names = {
    "PATH",          "HOME",          "USER",           "LOGNAME",     "SHELL",
    "LANG",          "LANGUAGE",      "TZ",             "TMPDIR",      "TERM",
    "LD_LIBRARY_PATH", "CUDA_HOME",   "CUDA_PATH",      "PYTHONPATH",  "PYTHONHOME",
    "VIRTUAL_ENV",   "CONDA_PREFIX",  "KOPT_PYTHON",    "KOPT_CACHE_DIR", "XDG_CACHE_HOME"};

}  // namespace

// Names the user asked to keep as well: KOPT_REFERENCE_KEEP_ENV=A,B (the user's own
// environment, e.g. a sanitizer's runtime; the code under test cannot set the parent's).
bool kept_on_request(const std::string& name) {
  const char* list = std::getenv("KOPT_REFERENCE_KEEP_ENV");
  if (list == nullptr) return false;
  const std::string_view names(list);
  std::size_t start = 0;
  while (start <= names.size()) {
    const std::size_t end = std::min(names.find(',', start), names.size());
    if (names.substr(start, end - start) == name) return true;
    start = end + 1;
  }
  return false;
}

bool kept_for_reference(const std::string& name) {
  if (name.rfind("LC_", 0) == 0 || name == "KOPT_REFERENCE_KEEP_ENV") return true;
  return std::find(kept_names.begin(), kept_names.end(), name) != kept_names.end() || kept_on_request(name);
}

std::vector<std::string> variables_to_clear_for_reference() {
  std::vector<std::string> names;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string name(text.substr(0, text.find('=')));
    if (!kept_for_reference(name)) names.push_back(name);
  }
  return names;
}

}  // namespace kopt::pipeline
