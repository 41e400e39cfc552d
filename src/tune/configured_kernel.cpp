#include "tune/configured_kernel.h"

#include <fmt/format.h>

#include "core/files.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace fs = std::filesystem;

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
  write_file_atomic(copy, tuned_copy_source(source, configuration, backend, target.kernel));
  configured.kernel = copy;
  return configured;
}

}  // namespace kopt::tune
