#pragma once
// Fields of a bench result computed from its timing documents: the speedup with its interval
// and verdict, and the warnings a reader needs to judge the numbers. Pure functions.

#include <optional>
#include <string>

#include "core/json_io.h"

namespace kopt::harness {

// The timing document's headline [ms]: its estimate_ms (median, or a trimmed mean for calls
// too short for the timer's step), or the median of a document without one.
double headline_ms(const json& timing);

// Adds speedup_vs_reference (reference headline / kernel headline), its 95 % interval from the
// bootstrap of that ratio, and kernel_vs_reference (the A/B verdict that calls "faster" only
// beyond the noise). `result` holds "kernel" and "reference" timing documents.
void add_speedup(json& result);

// "3 of 150 kernel samples ran while the GPU reported throttling (sw_power_cap)", or nothing.
std::optional<std::string> throttle_warning(const char* who, const json& timing);

// What a result concludes from its timing documents, wherever they were measured (kopt's
// harness or the Python runner): the speedup when a reference was timed, and a throttle
// warning per timed version, appended to result["warnings"].
void add_timing_conclusions(json& result);

}  // namespace kopt::harness
