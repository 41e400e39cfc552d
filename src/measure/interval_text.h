#pragma once
// How kopt writes a 95 % interval wherever it shows one (the terminal, the loop's texts, the
// report, the final answer): "[low, high]", each end written as the figure beside it is (the
// place's fmt format, 4 significant digits unless it says otherwise), or "n/a" when there is none.
// Records keep an interval as a JSON pair; interval_of reads it.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"

namespace kopt::measure {

using interval_bounds = std::array<double, 2>;

std::string interval_text(const std::optional<interval_bounds>& bounds, std::string_view number_format = "{:.4g}");

// The same after the figure it qualifies (" [low, high]"), or nothing when there is none.
std::string interval_after(const std::optional<interval_bounds>& bounds, std::string_view number_format = "{:.4g}");

// A record's [low, high], or none when it holds anything else (null, a missing field).
std::optional<interval_bounds> interval_of(const json& pair);

}  // namespace kopt::measure
