#include "tune/configured_kernel.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace fs = std::filesystem;
namespace {

// The copy lives under the run folder, away from the module's own folder: a line puts that
// folder on Python's import path, so that `import helpers` of a sibling file still finds it.
// It goes after the module's `from __future__` imports, which Python wants first.
std::string with_own_folder_importable(const std::string& module, const fs::path& folder) {
  std::vector<std::string> lines = split_lines(module);
  std::size_t insert_at = 0;  // the path line goes before this line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("from __future__ import")) continue;
    std::size_t end = i;  // a parenthesized list runs to its closing line
    if (lines[i].find('(') != std::string::npos) {
      while (end + 1 < lines.size() && lines[end].find(')') == std::string::npos) ++end;
    }
    insert_at = end + 1;
  }
  lines.insert(
      lines.begin() + static_cast<std::ptrdiff_t>(insert_at),
      fmt::format("import sys as _kopt_sys; _kopt_sys.path.append({})  # kopt tune: the module's own folder",
                  json(folder.string()).dump()));
  return join(lines, "\n") + "\n";
}

}  // namespace

kernel::backend backend_of(const pipeline::bench_target& target, std::string_view source) {
  return kernel::infer_backend(target.kernel, source, kernel::parse_backend_request(target.backend));
}

pipeline::bench_target configured_target(const pipeline::bench_target& target, std::string_view source,
                                         const kernel::tune_configuration& configuration,
                                         const fs::path& run_dir) {
  pipeline::bench_target configured = target;
  const kernel::backend backend = backend_of(target, source);
  if (backend != kernel::backend::triton) {
    for (const std::string& d : configuration.defines()) configured.defines.push_back(d);
    return configured;
  }
  std::string name = target.kernel.stem().string();
  for (const auto& [parameter, value] : configuration.values) name += fmt::format("_{}-{}", parameter, value);
  const fs::path copy = run_dir / "configurations" / (name + target.kernel.extension().string());
  fs::create_directories(copy.parent_path());
  const fs::path own_folder = fs::absolute(target.kernel).parent_path();
  write_file_atomic(copy,
                    with_own_folder_importable(tuned_source(source, configuration, backend), own_folder));
  configured.kernel = copy;
  return configured;
}

}  // namespace kopt::tune
