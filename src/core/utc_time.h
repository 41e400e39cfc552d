#pragma once
// The wall-clock time as kopt writes it in files: UTC, so that runs on machines in different
// time zones sort and compare.

#include <string>

namespace kopt {

// "2026-12-01T18:30:05Z" (ISO 8601).
std::string utc_timestamp();

// "20261201_183005": the Python toolkit's run folder suffix (run_YYYYMMDD_HHMMSS).
std::string utc_compact_timestamp();

}  // namespace kopt
