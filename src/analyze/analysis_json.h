#pragma once
// analysis.json (schema kopt.analysis/v1): every number of the diagnosis, with units in the
// key names, absent numbers as null.

#include "analyze/analyzer.h"
#include "core/json_io.h"

namespace kopt::analyze {

inline constexpr int analysis_schema_version = 1;

// The whole document, schema key first.
json to_json(const analysis& a);

}  // namespace kopt::analyze
