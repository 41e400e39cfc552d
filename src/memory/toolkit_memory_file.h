#pragma once
// The Python toolkit's global_strategy_memory.json as a typed document (its shape is in
// DESIGN.md): {"version", "updated_at", "scopes": {KEY: {"meta": {...}, "positive": {FP:
// entry}, "negative": {...}, "rejected": {...}}}}. Read by the one checking reader: a value of
// the wrong type is refused with its field named (scopes.KEY.positive.FP.tags), fields the
// toolkit may add later are passed over, and what the toolkit leaves null (an unknown arch, a
// last_iteration) is taken as absent.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"
#include "memory/memory_store.h"

namespace kopt::memory {

struct toolkit_entry {
  static constexpr bool document_open = true;
  std::vector<std::string> tags;
  std::optional<std::int64_t> first_iteration;
  std::optional<std::int64_t> last_iteration;
  std::optional<std::int64_t> count;
  std::optional<std::string> last_outcome;
  std::optional<std::string> last_reason;
  json evidence = nullptr;  // {baseline_iteration, baseline_median_ms, current_median_ms}, as the toolkit kept it
};
BOOST_DESCRIBE_STRUCT(toolkit_entry, (),
                      (tags, first_iteration, last_iteration, count, last_outcome, last_reason, evidence))

struct toolkit_meta {
  static constexpr bool document_open = true;
  std::optional<std::string> backend;
  std::optional<std::string> source_file;
  std::optional<std::string> reference_file;
  std::optional<std::vector<std::string>> dims_args;
  std::optional<std::string> arch;
};
BOOST_DESCRIBE_STRUCT(toolkit_meta, (), (backend, source_file, reference_file, dims_args, arch))

struct toolkit_scope {
  static constexpr bool document_open = true;
  std::optional<toolkit_meta> meta;
  std::optional<std::map<std::string, toolkit_entry>> positive;
  std::optional<std::map<std::string, toolkit_entry>> negative;
  std::optional<std::map<std::string, toolkit_entry>> rejected;
};
BOOST_DESCRIBE_STRUCT(toolkit_scope, (), (meta, positive, negative, rejected))

struct toolkit_memory_file {
  static constexpr bool document_open = true;
  std::optional<std::int64_t> version;
  std::optional<std::string> updated_at;
  std::map<std::string, toolkit_scope> scopes;
};
BOOST_DESCRIBE_STRUCT(toolkit_memory_file, (), (version, updated_at, scopes))

// The toolkit's outcomes as kopt records them (run "python-toolkit:KEY", candidate FP), and the
// keys of the entries whose key is not the fingerprint of their tags (left out).
struct toolkit_outcomes {
  std::vector<recorded_outcome> outcomes;
  std::vector<std::string> fingerprint_mismatches;
};
toolkit_outcomes outcomes_of(const toolkit_memory_file& file, const std::filesystem::path& imported_from);

}  // namespace kopt::memory

namespace kopt {
template <>
inline constexpr auto document_ranges<memory::toolkit_entry> =
    std::make_tuple(within(&memory::toolkit_entry::first_iteration, 0, 1e12),
                    within(&memory::toolkit_entry::last_iteration, 0, 1e12),
                    within(&memory::toolkit_entry::count, 0, 1e12));
}  // namespace kopt
