#include "loop/agent_sandbox.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/measuring_writes.h"
#include "core/sandboxed_process.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path agent_work_dir(const fs::path& run_dir) {
  const fs::path dir = run_dir / "agent";
  std::error_code ec;
  for (const fs::path& folder : {dir, dir / "tmp", dir / "cache"}) {
    fs::create_directories(folder, ec);
    if (ec) throw error(fmt::format("cannot create the agent's work folder {}: {}", folder.string(), ec.message()));
  }
  return dir;
}

write_allowance agent_allowance(const fs::path& kernel, const fs::path& proposal, const fs::path& candidates_dir,
                                const fs::path& work_dir) {
  write_allowance allowed;
  allowed.folders.push_back(work_dir);
  if (!candidates_dir.empty()) allowed.folders.push_back(candidates_dir);
  allowed.files = {fs::absolute(kernel), proposal};
  for (const fs::path& device : device_files()) allowed.files.push_back(device);
  return allowed;
}

std::map<std::string, std::string> sandboxed_agent_environment(const fs::path& work_dir) {
  const std::string tmp = (work_dir / "tmp").string();
  return {{"TMPDIR", tmp}, {"TMP", tmp}, {"TEMP", tmp}, {"KOPT_CACHE_DIR", (work_dir / "cache").string()}};
}

void check_agent_sandbox_available() {
  const write_sandbox probe = probe_write_sandbox();
  if (probe.applied) return;
  throw error(fmt::format("--agent-sandbox: no write sandbox can be applied here ({}): run on a Linux kernel with "
                          "Landlock (5.13 or later, enabled), or leave out --agent-sandbox to run the agent unrestricted",
                          probe.description));
}

}  // namespace kopt::loop
