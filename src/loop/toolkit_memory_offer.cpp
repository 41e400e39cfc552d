#include "loop/toolkit_memory_offer.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "memory/memory_files.h"

namespace kopt::loop {

namespace fs = std::filesystem;

std::vector<std::string> bring_toolkit_memory(const loop_settings& settings, memory::memory_store& store) {
  if (!settings.global_memory_file.empty()) {
    const memory::import_report r = memory::import_memory_file(store, settings.global_memory_file);
    return {fmt::format("imported {} ({}): {} outcomes added, {} already present", settings.global_memory_file.string(),
                        r.format, r.added, r.already_present)};
  }
  const fs::path beside = fs::absolute(settings.target.kernel).parent_path() / toolkit_memory_name;
  std::error_code ec;
  if (!fs::is_regular_file(beside, ec)) return {};
  if (!store.offer_once(sha256_hex(read_text_file(beside, "toolkit memory")), beside.string())) return {};
  return {fmt::format("the Python toolkit's strategy memory {} is beside the kernel: import it with `kopt memory "
                      "import {}`, or pass --global-memory-file {} (said once for this file)",
                      beside.string(), beside.string(), beside.string())};
}

}  // namespace kopt::loop
