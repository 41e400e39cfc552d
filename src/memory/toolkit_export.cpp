#include "memory/toolkit_export.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/hash.h"
#include "core/json_io.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "memory/toolkit_memory_file.h"

namespace kopt::memory {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view imported_prefix = "python-toolkit:";

std::string key_stem(const std::string& stem) {
  std::string out = stem;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

std::string evidence_text(const recorded_outcome& o, const char* key) {
  const auto found = o.evidence.find(key);
  return found != o.evidence.end() && found->is_string() ? found->get<std::string>() : "";
}

// The file a kopt outcome's run measured, or the operator's name with its backend's extension.
std::string source_file_of(const recorded_outcome& o) {
  const std::string file = evidence_text(o, "kernel_file");
  if (!file.empty()) return file;
  return o.scope.op + (o.scope.backend == "triton" ? ".py" : ".cu");
}

// {baseline_iteration, baseline_median_ms, current_median_ms}, as the toolkit keeps it; what an
// outcome imported from the toolkit kept, as it was.
json toolkit_evidence(const recorded_outcome& o) {
  if (o.run_id.starts_with(imported_prefix)) return o.evidence.value("evidence", json(nullptr));
  return {{"baseline_iteration", o.evidence.value("parent_iteration", json(nullptr))},
          {"baseline_median_ms", o.evidence.value("parent_median_ms", json(nullptr))},
          {"current_median_ms", o.evidence.value("candidate_median_ms", json(nullptr))}};
}

std::optional<std::map<std::string, toolkit_entry>>& bucket(toolkit_scope& scope, const std::string& outcome) {
  return outcome == "positive" ? scope.positive : outcome == "negative" ? scope.negative : scope.rejected;
}

void add(toolkit_entry& entry, const recorded_outcome& o) {
  const std::int64_t iteration = o.iteration;
  entry.tags = o.tags;
  entry.first_iteration = std::min(entry.first_iteration.value_or(iteration), iteration);
  entry.last_iteration = std::max(entry.last_iteration.value_or(iteration), iteration);
  entry.count = entry.count.value_or(0) + 1;
  entry.last_outcome = o.outcome;  // outcomes come oldest first: the last one read is the latest
  entry.last_reason = o.reason;
  entry.evidence = toolkit_evidence(o);
}

}  // namespace

std::string toolkit_scope_key(const std::string& backend, const std::string& source_stem,
                              const std::string& reference_stem, const std::string& arch,
                              std::vector<std::string> dimension_flags) {
  std::sort(dimension_flags.begin(), dimension_flags.end());
  return backend + "__" + key_stem(source_stem) + "__" + (reference_stem.empty() ? "no_ref" : key_stem(reference_stem)) +
         "__" + (arch.empty() ? "auto_arch" : arch) + "__" + sha1_hex(join(dimension_flags, "|")).substr(0, 12);
}

toolkit_export_counts export_toolkit_memory_file(const memory_store& store, const fs::path& file) {
  toolkit_export_counts counts;
  toolkit_memory_file document;
  document.version = 1;
  document.updated_at = utc_timestamp();
  for (const recorded_outcome& o : store.all()) {
    if (o.superseded) {
      ++counts.superseded;
      continue;
    }
    if (o.outcome == "neutral" || o.outcome == "inconclusive") {
      ++(o.outcome == "neutral" ? counts.neutral : counts.inconclusive);
      continue;
    }
    const std::vector<std::string> dims = split_words(o.scope.dims);
    const std::string reference = evidence_text(o, "reference_file");
    const bool imported = o.run_id.starts_with(imported_prefix);
    if (!imported && !o.evidence.contains("reference_file")) ++counts.reference_unknown;
    const std::string key =
        imported ? o.run_id.substr(imported_prefix.size())
                 : toolkit_scope_key(o.scope.backend, fs::path(source_file_of(o)).stem().string(),
                                     reference.empty() ? "" : fs::path(reference).stem().string(), o.scope.arch, dims);
    toolkit_scope& scope = document.scopes[key];
    if (!scope.meta) {
      toolkit_meta meta;
      meta.backend = o.scope.backend;
      meta.source_file = source_file_of(o);
      if (!reference.empty()) meta.reference_file = reference;
      meta.dims_args = dims;
      if (!o.scope.arch.empty()) meta.arch = o.scope.arch;
      scope.meta = meta;
    }
    auto& entries = bucket(scope, o.outcome);
    if (!entries) entries.emplace();
    add((*entries)[o.fingerprint], o);
    ++counts.written;
  }
  counts.scopes = document.scopes.size();
  write_json_file(file, to_document(document));
  return counts;
}

}  // namespace kopt::memory
