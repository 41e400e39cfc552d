#pragma once
// `kopt report --json`: the report's data as one document (schema kopt.report/v1): the manifest
// as the loop wrote it, each profiled iteration's diagnosis and roofline position, the roofs,
// and the memory's conclusions. Absent numbers are null.

#include "core/json_io.h"
#include "report/run_report.h"

namespace kopt::report {

inline constexpr const char* report_schema = "report";
inline constexpr int report_schema_version = 1;

json to_json(const run_report& report);

}  // namespace kopt::report
