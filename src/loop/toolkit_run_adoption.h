#pragma once
// A run folder the Python toolkit made, continued in kopt. kopt announces only figures it
// measured, so adopting a toolkit run re-judges what matters and keeps the rest as evidence:
// the toolkit's files are set aside as they are (run_manifest.json, final_summary.md and
// preflight_check.* gain the prefix "toolkit_", iter_vK/ becomes toolkit_iter_vK/), its figures
// are listed in toolkit_adoption.json marked unverified, and kopt's own run starts in the folder:
// v0 judged from the toolkit's v0 snapshot, then the toolkit's best from its snapshot, with the
// strategy tags that led to it, compared in turns with v0. The run then goes on as any kopt run.
// Each step is committed before the next begins, so a killed adoption resumes where it stopped.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"
#include "loop/toolkit_run_manifest.h"

namespace kopt::loop {

inline constexpr const char* toolkit_prefix = "toolkit_";
inline constexpr const char* toolkit_adoption_name = "toolkit_adoption.json";

// What adopting a folder still needs.
enum class adoption_step {
  none,        // not a toolkit run, or adopted
  set_aside,   // the toolkit's manifest is still run_manifest.json
  judge_v0,    // set aside; kopt's run has no v0 yet
  judge_best,  // kopt's v0 is in; the toolkit's best is still to be judged
};
adoption_step pending_adoption(const std::filesystem::path& run_dir);

// One iteration of the toolkit's run as the toolkit recorded it (unverified).
struct toolkit_iteration_figures {
  std::int64_t iteration = 0;
  std::string folder;                       // toolkit_iter_vK, relative to the run folder
  std::string snapshot;                     // relative to the run folder; "" when the toolkit's is missing
  std::optional<double> median_ms;          // the toolkit's, when its bench gave one
  std::string outcome;                      // the toolkit's strategy outcome ("" when none)
  std::vector<std::string> tags;
  std::optional<std::int64_t> judged_as;    // the kopt iteration that re-judged this version
};
BOOST_DESCRIBE_STRUCT(toolkit_iteration_figures, (),
                      (iteration, folder, snapshot, median_ms, outcome, tags, judged_as))

// toolkit_adoption.json: written when the toolkit's files are set aside.
struct toolkit_adoption {
  static constexpr std::string_view document_schema = "kopt.toolkit_adoption/v1";
  std::string adopted_at;
  std::string toolkit_manifest;             // toolkit_run_manifest.json
  bool verified = false;                    // the toolkit's figures are its own: never checked by kopt
  std::string run_kernel;                   // the run's kernel file (the toolkit's, where it still exists)
  std::vector<std::string> dims;            // the toolkit's dimension flags
  std::optional<std::int64_t> toolkit_best; // the toolkit's best iteration
  std::vector<std::string> next_tags;       // the toolkit's last proposal's tags (the next version's)
  std::vector<toolkit_iteration_figures> iterations;

  const toolkit_iteration_figures* find(std::int64_t iteration) const;
};
BOOST_DESCRIBE_STRUCT(toolkit_adoption, (),
                      (adopted_at, toolkit_manifest, verified, run_kernel, dims, toolkit_best, next_tags, iterations))

// Sets the toolkit's files aside (what a killed call already moved stays moved) and writes
// toolkit_adoption.json. `given_kernel` is the run's kernel when the toolkit's file is gone;
// `given_dims` the call's dimension flags, which must be the toolkit's run's (in any order).
// Throws kopt::error, moving nothing, for a manifest the checking reader refuses, a run
// without a v0 snapshot, or other dimensions.
toolkit_adoption set_toolkit_run_aside(const std::filesystem::path& run_dir, const std::filesystem::path& given_kernel,
                                       const std::vector<std::string>& given_dims);

// toolkit_adoption.json of an adopted folder; none when the folder has none.
std::optional<toolkit_adoption> read_toolkit_adoption(const std::filesystem::path& run_dir);

// The adoption's record with `iteration` of the toolkit's judged as kopt's `judged_as`.
void record_judged_as(const std::filesystem::path& run_dir, std::int64_t iteration, std::int64_t judged_as);

// The run folder's adoption record, for the schema files (docs/schemas).
json toolkit_adoption_schema();

}  // namespace kopt::loop
