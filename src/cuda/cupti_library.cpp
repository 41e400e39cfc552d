#include "cuda/cupti_library.h"

#include <cupti.h>
#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

namespace kopt::cuda {
namespace {

// Where libcupti lives: already in the process (torch loads its own copy; a second copy
// would fight it for the profiling interface), on the loader path, in the toolkit, or in
// its extras folder.
void* open_cupti() {
  for (const char* soname : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    if (void* loaded = ::dlopen(soname, RTLD_NOW | RTLD_NOLOAD)) return loaded;
  }
  std::vector<std::string> candidates = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
  for (const char* root_variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* root = std::getenv(root_variable); root != nullptr && *root != '\0') {
      candidates.push_back(fmt::format("{}/lib64/libcupti.so", root));
      candidates.push_back(fmt::format("{}/extras/CUPTI/lib64/libcupti.so", root));
    }
  }
  candidates.emplace_back("/usr/local/cuda/lib64/libcupti.so");
  candidates.emplace_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
  candidates.emplace_back("/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so");
  for (const auto& candidate : candidates) {
    if (void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL)) return handle;
  }
  return nullptr;
}

}  // namespace

void* cupti_library(std::string* problem) {
  static void* const handle = open_cupti();
  if (handle == nullptr && problem != nullptr) {
    *problem = "CUPTI (libcupti.so) not found: install the CUDA toolkit's CUPTI or set CUDA_HOME";
  }
  return handle;
}

std::string describe_cupti_result(int result) {
  using result_string_fn = decltype(&cuptiGetResultString);
  const char* text = nullptr;
  if (void* handle = cupti_library(nullptr)) {
    if (auto fn = reinterpret_cast<result_string_fn>(::dlsym(handle, "cuptiGetResultString"))) {
      fn(static_cast<CUptiResult>(result), &text);
    }
  }
  return text != nullptr ? text : fmt::format("CUptiResult {}", result);
}

}  // namespace kopt::cuda
