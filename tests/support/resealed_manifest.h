#pragma once
// What an agent between iterations can do to a run folder's record without kopt's help
// (EXPLOITS.md #30): edit run_manifest.json and compute its `content_sha256` again, exactly as
// kopt computes it (a plain SHA-256 of the compact JSON without that field).

#include <filesystem>
#include <functional>

#include "core/files.h"
#include "core/hash.h"
#include "core/json_io.h"

namespace kopt::testing {

inline void write_resealed_manifest(const std::filesystem::path& run_dir, json manifest) {
  manifest.erase("content_sha256");
  manifest["content_sha256"] = sha256_hex(json_text(manifest, -1));
  write_file_atomic(run_dir / "run_manifest.json", json_text(manifest) + "\n");
}

// Reads the run's manifest, lets `change` edit it, and writes it back resealed.
inline void forge_manifest(const std::filesystem::path& run_dir, const std::function<void(json&)>& change) {
  json manifest = json::parse(read_text_file(run_dir / "run_manifest.json"));
  change(manifest);
  write_resealed_manifest(run_dir, std::move(manifest));
}

// The forgery of issue 31: the last version made the best, at a tenth of its time.
inline void make_last_version_the_best(const std::filesystem::path& run_dir) {
  forge_manifest(run_dir, [](json& m) {
    json& last = m["iterations"].back();
    last["outcome"] = "positive";
    last["eligible"] = true;
    last["reason"] = "faster than the best";
    last["median_ms"] = last["median_ms"].get<double>() / 10;
    if (last["median_ci95_ms"].is_array()) {
      for (auto& bound : last["median_ci95_ms"]) bound = bound.get<double>() / 10;
    }
    if (last["speedup_vs_reference"].is_number()) {
      last["speedup_vs_reference"] = last["speedup_vs_reference"].get<double>() * 10;
    }
    m["best"] = last["iteration"];
  });
}

}  // namespace kopt::testing
