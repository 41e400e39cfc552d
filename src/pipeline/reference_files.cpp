#include "pipeline/reference_files.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "core/hash.h"
#include "core/mapped_file.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

// A file's SHA-256, read in place; "" when it cannot be read (gone, not a regular file).
std::string digest_of(const fs::path& path) {
  try {
    const mapped_file file(path);
    const auto bytes = file.bytes();
    return hasher().update(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())).hex_digest();
  } catch (const error&) {
    return "";
  }
}

// The runner and the package beside it (kopt_runtime/*.py): all of it runs in the reference's
// Python process.
std::vector<fs::path> runner_files(const fs::path& runner) {
  std::vector<fs::path> files{runner};
  const fs::path package = runner.parent_path() / "kopt_runtime";
  std::error_code ec;
  for (auto it = fs::directory_iterator(package, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".py") files.push_back(it->path());
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

}  // namespace

reference_files::reference_files(const harness::bench_job& job) {
  std::vector<fs::path> paths;
  for (const std::string& path : {job.reference_source, job.reference_library, job.harness_abi_library}) {
    if (!path.empty()) paths.emplace_back(path);
  }
  if (!job.python_runner.empty()) {
    for (const fs::path& file : runner_files(job.python_runner)) paths.push_back(file);
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back(self);
  for (const fs::path& path : paths) m_files.emplace_back(path.string(), digest_of(path));
}

std::optional<std::string> reference_files::changed() const {
  for (const auto& [path, digest] : m_files) {
    if (digest_of(path) != digest) return path;
  }
  return std::nullopt;
}

std::string reference_files::content_digest() const {
  hasher digest;
  for (const auto& file : m_files) digest.update_field(file.second);
  return digest.hex_digest();
}

}  // namespace kopt::pipeline
