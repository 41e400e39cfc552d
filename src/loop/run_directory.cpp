#include "loop/run_directory.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/utc_time.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path create_run_dir(const fs::path& kernel, const fs::path& root) {
  const fs::path parent =
      root.empty() ? fs::absolute(kernel).parent_path() / "optimize_runs" : fs::absolute(root);
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw error(fmt::format("cannot create {}: {}; pass --run-dir in a folder you can write", parent.string(),
                            ec.message()));
  const std::string name = "run_" + utc_compact_timestamp();
  for (int attempt = 1; attempt < 100; ++attempt) {
    const fs::path candidate = parent / (attempt == 1 ? name : fmt::format("{}_{}", name, attempt));
    // create_directory is atomic: of two loops started at once, one gets each name.
    if (fs::create_directory(candidate, ec)) return candidate;
    if (ec) throw error(fmt::format("cannot create {}: {}", candidate.string(), ec.message()));
  }
  throw error(fmt::format("cannot find a free run folder name under {}", parent.string()));
}

fs::path iteration_dir(const fs::path& run_dir, std::int64_t iteration) {
  return run_dir / fmt::format("iter_v{}", iteration);
}

std::string snapshot_name(const fs::path& kernel, std::int64_t iteration) {
  return fmt::format("{}_v{}{}", kernel.stem().string(), iteration, kernel.extension().string());
}

fs::path candidate_dir(const fs::path& run_dir, std::int64_t iteration, int candidate) {
  return iteration_dir(run_dir, iteration) / fmt::format("cand_{}", candidate);
}

std::string candidate_snapshot_name(const fs::path& kernel, std::int64_t iteration, int candidate) {
  return fmt::format("{}_v{}_c{}{}", kernel.stem().string(), iteration, candidate,
                     kernel.extension().string());
}

fs::path handover_dir(const fs::path& run_dir, std::int64_t iteration) {
  return iteration_dir(run_dir, iteration) / "candidates";
}

std::string checked_snapshot(const fs::path& run_dir, const std::string& snapshot, const std::string& sha256,
                             std::string& failure) {
  const fs::path file = run_dir / snapshot;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    failure = fmt::format("its snapshot {} is missing", snapshot);
    return "";
  }
  std::string source = read_text_file(file, "snapshot");
  if (sha256_hex(source) != sha256) {
    failure = fmt::format("its snapshot {} changed since it was measured", snapshot);
    return "";
  }
  return source;
}

}  // namespace kopt::loop
