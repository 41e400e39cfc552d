#include "memory/memory_files.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_io.h"
#include "memory/outcome_document.h"
#include "memory/toolkit_memory_file.h"

namespace kopt::memory {
namespace fs = std::filesystem;
namespace {

constexpr const char* nothing_imported = "nothing was imported";

// An export written before redone iterations kept their attempts: each outcome the first.
json with_first_attempts(json document) {
  if (!document.contains("outcomes") || !document["outcomes"].is_array()) return document;
  for (json& outcome : document["outcomes"]) {
    if (!outcome.is_object()) continue;
    if (!outcome.contains("attempt")) outcome["attempt"] = 1;
    if (!outcome.contains("superseded")) outcome["superseded"] = false;
  }
  return document;
}

// The file's outcomes, every field checked, before anything is stored.
std::vector<recorded_outcome> read_outcomes(const json& document, const fs::path& file, import_report& report) {
  // kopt's export names its schema; the toolkit's file has none, and its scopes.
  if (document.is_object() && document.contains("schema")) {
    report.format = "kopt";
    return from_document<memory_export>(with_first_attempts(document)).outcomes;
  }
  if (document.is_object() && document.contains("scopes")) {
    report.format = "python toolkit";
    toolkit_outcomes toolkit = outcomes_of(from_document<toolkit_memory_file>(document), file);
    report.fingerprint_mismatches = std::move(toolkit.fingerprint_mismatches);
    return std::move(toolkit.outcomes);
  }
  throw error(fmt::format("{} is neither a kopt memory export nor the Python toolkit's global_strategy_memory.json; "
                          "{}",
                          file.string(), nothing_imported));
}

}  // namespace

import_report import_memory_file(memory_store& store, const fs::path& file) {
  const json document = read_json_file(file);
  import_report report;
  std::vector<recorded_outcome> outcomes;
  try {
    outcomes = read_outcomes(document, file, report);
  } catch (const document_error& e) {
    throw e.in(file.string(), fmt::format("{}: mend the file, or export it again", nothing_imported));
  }
  // One transaction: a file that fails half-way stores nothing.
  std::vector<bool> added;
  try {
    added = store.record_all(std::move(outcomes));
  } catch (const error& e) {
    throw error(fmt::format("{}: {}; {}", file.string(), e.headline(), nothing_imported), e.detail());
  }
  for (const bool is_new : added) is_new ? ++report.added : ++report.already_present;
  return report;
}

void export_memory_file(const memory_store& store, const fs::path& file) {
  write_json_file(file, to_document(memory_export{store.all()}));
}

}  // namespace kopt::memory
