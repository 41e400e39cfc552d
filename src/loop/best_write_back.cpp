#include "loop/best_write_back.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path last_version_file(const fs::path& kernel_file) {
  return kernel_file.parent_path() / (kernel_file.stem().string() + "_last" + kernel_file.extension().string());
}

std::string write_back_best(const run_manifest& m, const fs::path& run_dir, const final_confirmation& c) {
  const iteration_record* best = c.best ? m.find(*c.best) : nullptr;
  if (best == nullptr) return "";
  const std::string source = read_text_file(run_dir / best->snapshot, "the confirmed best's snapshot");
  if (sha256_hex(source) != best->source_sha256) {
    throw error(fmt::format("{} is not the version v{} the run confirmed (its SHA-256 differs): the kernel file was "
                            "left as it is",
                            (run_dir / best->snapshot).string(), best->iteration));
  }
  const fs::path kernel = m.kernel;
  const bool present = fs::is_regular_file(kernel);
  const std::string current = present ? read_text_file(kernel, "kernel file") : std::string();
  if (present && current == source) return fmt::format("{} holds v{}, the confirmed best", kernel.string(), best->iteration);
  std::string kept;
  if (present) {
    const fs::path last = last_version_file(kernel);
    write_file_atomic(last, current);
    kept = fmt::format(" (what it held is kept in {})", last.string());
  }
  write_file_atomic(kernel, source);
  return fmt::format("{} now holds v{}, the confirmed best{}", kernel.string(), best->iteration, kept);
}

}  // namespace kopt::loop
