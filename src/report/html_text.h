#pragma once
// Text as the page holds it: every string read from a run's files (kernel names, tags, reasons,
// paths, source lines) goes through escape_html before it reaches the page, in element text
// and in attribute values alike; numbers are written in one place so that a chart's data-*
// attributes give back the manifest's values exactly.

#include <optional>
#include <string>
#include <string_view>

namespace kopt::report {

// & < > " ' as character references; the result is safe in text and in quoted attributes.
std::string escape_html(std::string_view text);

// The shortest text that reads back as the same double ("0.0834", "1.2e+13"); for data-*.
std::string exact_number(double value);

// For people: `digits` significant digits ("0.0834"); "n/a" for none.
std::string short_number(const std::optional<double>& value, int digits = 4);

// With an SI prefix for large and small magnitudes: 1.2e13 -> "12 T", 3.4e-4 -> "340 µ".
std::string si_number(double value);

// One row of a page's facts list (<dl class="facts">): `value_html` is already escaped.
std::string fact_row(const char* name, const std::string& value_html);

}  // namespace kopt::report
