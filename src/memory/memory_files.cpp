#include "memory/memory_files.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::memory {
namespace fs = std::filesystem;
namespace {

constexpr const char* export_schema = "strategy_memory";

void count(import_report& report, bool added) { added ? ++report.added : ++report.already_present; }

std::string text_field(const json& object, const char* name) {
  if (!object.is_object() || !object.contains(name) || !object[name].is_string()) return "";
  return object[name].get<std::string>();
}

// The toolkit's scopes: KEY -> {meta, positive, negative, rejected}, each FP -> entry.
void import_toolkit(memory_store& store, const json& document, const fs::path& file, import_report& report) {
  for (const auto& [key, scope_entry] : document["scopes"].items()) {
    const json meta = scope_entry.value("meta", json::object());
    memory_scope scope;
    scope.backend = text_field(meta, "backend");
    scope.arch = text_field(meta, "arch");
    scope.op = fs::path(text_field(meta, "source_file")).stem().string();
    if (meta.contains("dims_args") && meta["dims_args"].is_array()) {
      std::vector<std::string> flags;
      for (const auto& flag : meta["dims_args"]) {
        if (flag.is_string()) flags.push_back(flag.get<std::string>());
      }
      scope.dims = join(flags, " ");
    }
    for (const char* category : {"positive", "negative", "rejected"}) {
      if (!scope_entry.contains(category) || !scope_entry[category].is_object()) continue;
      for (const auto& [fingerprint, entry] : scope_entry[category].items()) {
        recorded_outcome o;
        o.run_id = "python-toolkit:" + key;
        o.iteration = entry.value("last_iteration", std::int64_t{0});
        o.candidate = fingerprint;
        o.tags = entry.value("tags", std::vector<std::string>{});
        o.scope = scope;
        o.outcome = category;
        o.reason = text_field(entry, "last_reason");
        o.evidence = json{{"imported_from", file.string()},
                          {"count", entry.value("count", json(nullptr))},
                          {"first_iteration", entry.value("first_iteration", json(nullptr))},
                          {"evidence", entry.value("evidence", json(nullptr))}};
        if (strategy_fingerprint(scope.backend, o.tags) != fingerprint) {
          report.fingerprint_mismatches.push_back(fingerprint);
          continue;
        }
        o.fingerprint = fingerprint;
        o.recorded_at = text_field(document, "updated_at");  // the toolkit keeps no time per entry
        count(report, store.record(std::move(o)));
      }
    }
  }
}

}  // namespace

import_report import_memory_file(memory_store& store, const fs::path& file) {
  const json document = read_json_file(file);
  import_report report;
  if (document.is_object() && document.value("schema", "") == fmt::format("kopt.{}/v1", export_schema)) {
    report.format = "kopt";
    for (const auto& entry : document.at("outcomes")) count(report, store.record(recorded_outcome_from_json(entry)));
    return report;
  }
  if (document.is_object() && document.contains("scopes") && document["scopes"].is_object()) {
    report.format = "python toolkit";
    import_toolkit(store, document, file, report);
    return report;
  }
  throw error(fmt::format("{} is neither a kopt memory export nor the Python toolkit's global_strategy_memory.json",
                          file.string()));
}

void export_memory_file(const memory_store& store, const fs::path& file) {
  json outcomes = json::array();
  for (const recorded_outcome& o : store.all()) outcomes.push_back(to_json(o));
  write_json_file(file, with_schema(export_schema, 1, json{{"outcomes", outcomes}}));
}

}  // namespace kopt::memory
