#pragma once
// What each version changed: its snapshot against its parent's (the version it was built from
// and compared with), as a unified diff from the system's `diff -u`, for the report.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loop/run_records.h"

namespace kopt::report {

struct source_change {
  std::int64_t iteration = 0;
  std::optional<std::int64_t> parent;  // none for v0
  std::string diff;                    // `diff -u`, labelled vP/<file> and vK/<file>; "" when none
  std::string note;                    // why there is no diff, or that it was cut ("" when whole)
};

// Longer diffs are cut here, said so: a report page is read by a person.
inline constexpr std::size_t most_diff_bytes = 64 * 1024;

// One per iteration of the manifest, in order. Never throws for a missing snapshot or a missing
// `diff`: the note says so.
std::vector<source_change> read_source_changes(const std::filesystem::path& run_dir, const loop::run_manifest& m);

}  // namespace kopt::report
