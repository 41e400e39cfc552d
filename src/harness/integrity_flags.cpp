#include "harness/integrity_flags.h"

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

}  // namespace kopt::harness
