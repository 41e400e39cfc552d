#include "loop/step_context.h"

#include <fmt/format.h>

#include "core/files.h"
#include "loop/next_proposal.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_settings.h"
#include "loop/run_summaries.h"

namespace kopt::loop {

namespace fs = std::filesystem;

std::vector<std::string> version_commands(const run_manifest& m, const fs::path& run_dir, const iteration_record& r) {
  std::string version = (run_dir / r.snapshot).string();
  if (!m.reference.empty()) version += " --ref " + m.reference;
  for (const std::string& define : frozen_defines(m)) version += " -D" + define;
  std::string target = version;
  for (const auto& d : m.frozen.dims) target += " " + d;
  std::vector<std::string> commands = {
      fmt::format("kopt bench {}", target),
      fmt::format("kopt profile {} --out {}", target, iteration_dir(run_dir, r.iteration).string()),
      fmt::format("kopt analyze {}", (iteration_dir(run_dir, r.iteration) / "ncu_raw.csv").string())};
  for (const auto& shape : m.frozen.check_dims) {
    commands.push_back(fmt::format("kopt bench {} {}", version, shape));
  }
  return commands;
}

std::vector<std::string> reproduce_commands(const run_manifest& m, const fs::path& run_dir) {
  if (!m.best) return {};
  return version_commands(m, run_dir, *m.find(*m.best));
}

void commit_iteration(const step_context& ctx, const iteration_record& r) {
  const run_manifest& m = ctx.run.manifest;
  const fs::path dir = iteration_dir(ctx.run.dir, r.iteration);
  write_file_atomic(dir / "iteration_summary.md",
                    iteration_summary_markdown(m, r) + commands_markdown(version_commands(m, ctx.run.dir, r)));
  write_file_atomic(dir / "optimization_proposal.md", next_proposal_markdown(m, ctx.run.dir, ctx.store));
  commit_run_manifest(ctx.run.dir, m, ctx.store);  // the commit point: from here the iteration counts
  write_file_atomic(ctx.run.dir / "final_summary.md",
                    final_summary_markdown(m, reproduce_commands(m, ctx.run.dir)));
}

}  // namespace kopt::loop
