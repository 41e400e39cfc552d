#pragma once
// Configurations' results kept between tunes, one file each under the cache folder, keyed by what
// makes a result the same as an earlier one's: the sources, the problem (dimensions, pointer
// size, the other -D values), the configuration, the protocol and tolerances, the GPU, its
// driver, the compiler named and kopt itself. A repeated or interrupted tune reads them instead
// of measuring again.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/json_io.h"
#include "env/gpu_probe.h"
#include "kernel/tune_space.h"
#include "tune/tune_request.h"
#include "tune/tune_result.h"

namespace kopt::tune {

class tune_cache {
 public:
  // The key's fields are read once: `request`'s target at the shape being tuned.
  tune_cache(const tune_request& request, std::string_view kernel_source, const env::gpu_probe_result& gpus);

  // What an earlier tune measured, marked cached; none when absent, unreadable or disabled.
  std::optional<measured_configuration> read(const kernel::tune_configuration& c) const;
  // Whether an entry is kept for `c`, without reading it (a damaged one too: read() decides).
  bool holds(const kernel::tune_configuration& c) const;
  void keep(const kernel::tune_configuration& c, const measured_configuration& m) const;

 private:
  std::string key(const kernel::tune_configuration& c) const;

  std::optional<std::filesystem::path> m_folder;
  json m_key_fields;
};

}  // namespace kopt::tune
