#pragma once
// What `kopt analyze` reads: the raw page (from a CSV, or exported from a .ncu-rep with ncu),
// ncu's details page and source page when found, and which knowledge base applies.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"

namespace kopt::pipeline {

struct analysis_inputs {
  profile::raw_report raw;
  std::optional<profile::details_report> details;
  std::string details_file;  // "" when none was found
  std::vector<profile::source_function> source;  // functions with per-line counters
  std::string source_file;   // "" when no source page with counters was found
};

// Throws kopt::error for a missing file, a CSV that is not an ncu export, a report without
// kernels, or a .ncu-rep when ncu cannot be found.
analysis_inputs load_analysis_inputs(const std::filesystem::path& report,
                                     const std::optional<std::filesystem::path>& details,
                                     const std::string& ncu_bin);

// The details file beside a raw CSV: "x_raw.csv" -> "x_details.csv" (or .txt), "raw.csv" ->
// "details.csv". nullopt when none exists.
std::optional<std::filesystem::path> sibling_details(const std::filesystem::path& raw_csv);

// The source page beside a raw CSV: "x_raw.csv" -> "x_source.csv", "ncu_raw.csv" ->
// "ncu_source.csv". nullopt when none exists.
std::optional<std::filesystem::path> sibling_source(const std::filesystem::path& raw_csv);

struct backend_choice {
  std::string name;  // cuda, cutlass, triton
  std::string how;   // "from --backend", "kernel name mentions cutlass", ...
};

// `requested` wins (and must be a known backend); otherwise guessed from the launches.
backend_choice choose_backend(const std::optional<std::string>& requested, const profile::raw_report& raw);

}  // namespace kopt::pipeline
