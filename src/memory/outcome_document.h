#pragma once
// A recorded outcome as a document, from one field list: what `kopt memory export` writes
// (kopt.strategy_memory/v1, every outcome) and `kopt memory show --json` prints, and what
// `kopt memory import` reads back, refusing the first field that is wrong by name. An export
// written before attempts existed has no `attempt` or `superseded`: the first, not superseded.

#include <string_view>
#include <tuple>
#include <vector>

#include "core/document.h"
#include "memory/memory_store.h"

namespace kopt::memory {

BOOST_DESCRIBE_STRUCT(memory_scope, (), (backend, arch, op, op_family, dims, bottleneck))
BOOST_DESCRIBE_STRUCT(recorded_outcome, (),
                      (run_id, iteration, candidate, fingerprint, tags, scope, outcome, reason, evidence, recorded_at,
                       attempt, superseded))

struct memory_export {
  static constexpr std::string_view document_schema = "kopt.strategy_memory/v1";
  std::vector<recorded_outcome> outcomes;
};
BOOST_DESCRIBE_STRUCT(memory_export, (), (outcomes))

}  // namespace kopt::memory

namespace kopt {
// An iteration is a run's v0, v1, ...: never negative.
template <>
inline constexpr auto document_ranges<memory::recorded_outcome> =
    std::make_tuple(within(&memory::recorded_outcome::iteration, 0, 1e12),
                    within(&memory::recorded_outcome::attempt, 1, 1e12));
}  // namespace kopt
