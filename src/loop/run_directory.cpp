#include "loop/run_directory.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/timestamped_folder.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path create_run_dir(const fs::path& kernel, const fs::path& root) {
  const fs::path parent =
      root.empty() ? fs::absolute(kernel).parent_path() / "optimize_runs" : fs::absolute(root);
  return create_timestamped_folder(parent, "run", "pass --run-dir in a folder you can write");
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

std::string tuned_snapshot_name(const std::filesystem::path& candidate_snapshot) {
  return candidate_snapshot.stem().string() + "_tuned" + candidate_snapshot.extension().string();
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
