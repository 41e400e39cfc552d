#include "memory/toolkit_memory_file.h"

#include "core/text.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::memory {
namespace fs = std::filesystem;

toolkit_outcomes outcomes_of(const toolkit_memory_file& file, const fs::path& imported_from) {
  toolkit_outcomes out;
  for (const auto& [key, scope_entry] : file.scopes) {
    const toolkit_meta meta = scope_entry.meta.value_or(toolkit_meta{});
    memory_scope scope;
    scope.backend = meta.backend.value_or("");
    scope.arch = meta.arch.value_or("");
    scope.op = fs::path(meta.source_file.value_or("")).stem().string();
    scope.dims = join(meta.dims_args.value_or(std::vector<std::string>{}), " ");
    const std::pair<const char*, const std::optional<std::map<std::string, toolkit_entry>>*> categories[] = {
        {"positive", &scope_entry.positive}, {"negative", &scope_entry.negative}, {"rejected", &scope_entry.rejected}};
    for (const auto& [category, entries] : categories) {
      if (!*entries) continue;
      for (const auto& [fingerprint, entry] : **entries) {
        if (strategy_fingerprint(scope.backend, entry.tags) != fingerprint) {
          out.fingerprint_mismatches.push_back(fingerprint);
          continue;
        }
        recorded_outcome o;
        o.run_id = "python-toolkit:" + key;
        o.iteration = entry.last_iteration.value_or(0);
        o.candidate = fingerprint;
        o.fingerprint = fingerprint;
        o.tags = entry.tags;
        o.scope = scope;
        o.outcome = category;
        o.reason = entry.last_reason.value_or("");
        o.evidence = json{{"imported_from", imported_from.string()},
                          {"count", json_or_null(entry.count)},
                          {"first_iteration", json_or_null(entry.first_iteration)},
                          {"evidence", entry.evidence}};
        o.recorded_at = file.updated_at.value_or("");  // the toolkit keeps no time per entry
        out.outcomes.push_back(std::move(o));
      }
    }
  }
  return out;
}

}  // namespace kopt::memory
