#include "loop/run_manifest.h"

#include <fmt/format.h>

#include "core/document_error.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/run_manifest_fields.h"
#include "loop/toolkit_run_manifest.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

constexpr const char* checksum_key = "content_sha256";

std::string checksum_of(const json& document_without_checksum) {
  return sha256_hex(json_text(document_without_checksum, -1));
}

std::string schema_text(int version) {
  return fmt::format("kopt.{}/v{}", run_manifest_schema, version);
}

}  // namespace

json to_json(const run_manifest& m) {
  return with_schema(run_manifest_schema, run_manifest_version, manifest_fields(m));
}

std::string run_manifest_text(const run_manifest& manifest) {
  json document = to_json(manifest);
  document[checksum_key] = checksum_of(document);
  return json_text(document) + "\n";
}

void write_run_manifest(const fs::path& run_dir, run_manifest manifest) {
  write_file_atomic(run_dir / run_manifest_name, run_manifest_text(manifest));
}

run_manifest read_run_manifest(const fs::path& run_dir) {
  const fs::path file = run_dir / run_manifest_name;
  json document = read_json_file(file);
  const auto text_at = [&](const char* key) {
    return document.is_object() && document.contains(key) && document[key].is_string()
               ? document[key].get<std::string>()
               : std::string();
  };
  const std::string schema = text_at("schema");
  if (is_toolkit_run_manifest(document)) {
    throw error(fmt::format(
        "{} is the Python toolkit's record of its run, which kopt has not adopted yet: continue the "
        "run with kopt loop KERNEL --run-dir {} and the run's dimensions, which adopts it (the "
        "toolkit's files are kept, its best judged again)",
        file.string(), run_dir.string()));
  }
  if (schema != schema_text(run_manifest_version) && schema != schema_text(4) && schema != schema_text(3) &&
      schema != schema_text(2) && schema != schema_text(1)) {
    throw error(
        fmt::format("{} is not a kopt run manifest ({}): pass the folder of a run started by this kopt, or "
                    "start a new run without --run-dir",
                    file.string(), schema_text(run_manifest_version)));
  }
  const std::string recorded = text_at(checksum_key);
  document.erase(checksum_key);
  if (recorded != checksum_of(document)) {
    throw error(
        fmt::format("{} was changed outside kopt (its checksum does not match its content): kopt alone "
                    "writes the run's record; restore the file or start a new run",
                    file.string()));
  }
  document.erase("schema");
  try {
    return manifest_from_fields(std::move(document));
  } catch (const document_error& e) {
    throw e.in(file.string(),
               "kopt did not write this; restore the run folder as kopt left it, or start a new run");
  }
}

}  // namespace kopt::loop
