#pragma once
// `analyze` as a function: an ncu report (or its raw CSV) to one diagnosis per profiled launch,
// written as a markdown and a JSON file named after the report (analysis_file_stem). The CLI
// and the loop call it alike.

#include <filesystem>
#include <optional>
#include <string>

#include "analyze/analyzer.h"
#include "core/json_io.h"

namespace kopt::pipeline {

struct analysis_request {
  std::filesystem::path report;                  // .ncu-rep or raw CSV
  std::optional<std::filesystem::path> details;  // none: the sibling of a raw CSV, if any
  std::optional<std::string> backend;            // none: guessed from the kernel names
  std::optional<std::filesystem::path> out;      // none: beside the report
  std::string ncu_bin;                           // for a .ncu-rep; "": searched
};

struct analysis_outcome {
  analyze::analysis analysis;
  json document = nullptr;                       // the JSON file's contents
  std::filesystem::path out;                     // the folder the two files are in
  std::filesystem::path markdown_file;           // out / STEM.md
  std::filesystem::path json_file;               // out / STEM.json
};

// "analysis" for the reports kopt profile writes (full.ncu-rep, ncu_raw.csv: a run folder's
// analysis.md and analysis.json), else the report's name with "_analysis": histogram_raw.csv
// and h.ncu-rep give histogram_analysis and h_analysis, so that two reports in one folder keep
// their own files.
std::string analysis_file_stem(const std::filesystem::path& report);

// Throws kopt::error for unreadable or foreign inputs, and for a report in which no launch has
// the speed-of-light metrics kopt classifies by (nothing is written then).
analysis_outcome run_analysis(const analysis_request& request);

}  // namespace kopt::pipeline
