#include "harness/integrity_flags.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt::harness {

void add_integrity_flags(json& result, const std::vector<std::string>& libraries) {
  const json& timing = result["kernel"];
  if (const int side = timing.value("side_streams", 0); side > 0) {
    result["warnings"].push_back(fmt::format(
        "side stream: the kernel's work ran on {} stream(s) besides the default one ({} in all); all of it is timed, "
        "from the first start to the last end",
        side, timing.value("streams", 0)));
  }
  if (const auto calls = timing.value("persisting_l2_calls", std::uint64_t{0}); calls > 0) {
    result["warnings"].push_back(fmt::format(
        "persisting L2: solve() set a persisting-L2 limit in {} of {} calls; kopt reset it after every call, so "
        "nothing stayed pinned across the flush",
        calls, result.value("timed_call_checks", json::object()).value("calls", std::uint64_t{0})));
  }
  if (!libraries.empty()) {
    result["warnings"].push_back(fmt::format("library call: solve() loaded {}; their work is timed as the kernel's",
                                             fmt::join(libraries, ", ")));
  }
  result["libraries_loaded_by_kernel"] = libraries;
}

void add_library_kernels_flag(json& result, const std::vector<std::string>& triton_kernels) {
  if (!result.contains("kernel") || !result["kernel"].is_object()) return;
  std::vector<std::string> foreign;
  for (const auto& name : result["kernel"].value("kernel_names", json::array())) {
    const std::string text = name.get<std::string>();
    if (std::find(triton_kernels.begin(), triton_kernels.end(), text) == triton_kernels.end()) foreign.push_back(text);
  }
  if (foreign.empty()) return;
  constexpr std::size_t shown = 3;
  const std::vector<std::string> first(foreign.begin(), foreign.begin() + static_cast<long>(std::min(shown, foreign.size())));
  result["warnings"].push_back(fmt::format(
      "library call: run_kernel() ran {} kernel(s) Triton did not compile ({}{}): a library's work (torch, cuBLAS, "
      "...), timed as the module's",
      foreign.size(), fmt::join(first, ", "), foreign.size() > shown ? ", ..." : ""));
  result["library_kernels"] = foreign;
}

}  // namespace kopt::harness
