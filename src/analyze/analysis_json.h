#pragma once
// analysis.json (schema kopt.analysis/v3; v3 added the FP64 peak): every number of the diagnosis, with units in the
// key names, absent numbers as null. v2 added each kernel's hottest_source_lines and the
// report's source_file.

#include "analyze/analyzer.h"
#include "core/json_io.h"

namespace kopt::analyze {

inline constexpr int analysis_schema_version = 3;

// The whole document, schema key first.
json to_json(const analysis& a);

}  // namespace kopt::analyze
