#pragma once
// Whose GPU work an activity record is, judged from the host call that issued it: the solve()
// call being timed, kopt's own (flush, inputs, poison, downloads: the harness thread between
// calls), or foreign: issued by another thread while no solve() call was open, which is work
// launched behind the judge's back (EXPLOITS.md #13, #22). Work of an earlier call found in a
// later batch finished only after kopt had synchronised and read that call's work: it was left
// in flight (#24). Pure; tested on its own.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cuda/cupti_activity.h"
#include "cuda/launch_attribution.h"

namespace kopt::harness {

enum class work_owner { this_call, harness, earlier_call, foreign, unattributed };

// `origin` is what the callbacks saw of the record's issuing call (nothing: never seen);
// `window` the call being judged (0 when none is).
work_owner owner_of(const std::optional<cuda::api_origin>& origin, std::uint64_t window);

inline constexpr std::uint32_t no_stream = UINT32_MAX;

// One timed call's share of a batch of records.
struct call_work {
  double span_ns = 0;          // [ns] first start to last end of the call's work
  double kernel_ns = 0;        // [ns] sum of its kernels
  double memory_ops_ns = 0;    // [ns] sum of its copies and memsets
  int kernels = 0;
  int memory_ops = 0;
  std::set<std::string> kernel_names;  // the distinct kernels the call ran, as the driver names them
  int streams = 0;
  std::vector<std::uint32_t> stream_ids;  // the streams the call's work ran on
  std::uint32_t harness_stream = no_stream;  // where kopt's own work in the batch ran (the default stream)
  std::uint64_t host_copy_bytes = 0;  // [bytes] copied between host and device memory
  int unattributed = 0;        // records whose issuing call CUPTI never reported (counted in
                               // the call's work when a call is judged)
  std::string foreign;         // the first foreign record, described; "" when none
  std::string late;            // the first record of an earlier call, described ("kernel k of call 3"); "" when none
  std::string unreadable;      // the first of the call's records without a valid start and end (CUPTI gave a
                               // start of 0, or an end before its start), described; not in the span
};

// The origin of the API call with a correlation id (launch_attribution::origin, or a table in tests).
using origin_lookup = std::function<std::optional<cuda::api_origin>(std::uint32_t correlation)>;

// Sorts `records` into the call's work (window `window`), kopt's own, and foreign work.
call_work attribute(const std::vector<cuda::gpu_activity>& records, std::uint64_t window,
                    const origin_lookup& lookup);

}  // namespace kopt::harness
