#pragma once
// analysis.json read back into the typed diagnosis it was written from (analysis_json.h is the
// writer): the reader that checks the schema, for whoever shows a run's diagnoses later.

#include <filesystem>

#include "analyze/analyzer.h"
#include "core/json_io.h"

namespace kopt::analyze {

// Throws kopt::error naming `where` for a document of another schema or a newer version, or
// one that lacks a field the writer always writes. Version 1 (before hottest_source_lines and
// source_file) is read with those empty.
analysis analysis_from_json(const json& document, const std::string& where);

// read_json_file + analysis_from_json.
analysis read_analysis_file(const std::filesystem::path& file);

// The launch that took longest: where a new version gains most, and the one the loop records
// the bottleneck of. Null when there is none.
const kernel_diagnosis* slowest_launch(const analysis& a);

}  // namespace kopt::analyze
