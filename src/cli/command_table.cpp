#include "cli/command.h"
#include "cli/commands.h"

namespace kopt::cli {

const std::vector<command_entry>& command_table() {
  static const std::vector<command_entry> table = {
      {"preflight", "check the environment: GPU, driver, nvcc, ncu, Python, CUTLASS", make_preflight_command},
      {"inspect", "show what kopt will do with a kernel: backend, parameters, roles, buffer sizes",
       make_inspect_command},
      {"compile", "build a kernel into a shared library and report registers, shared memory, spills",
       make_compile_command},
      {"bench", "validate a kernel against a reference, then time both from device timestamps",
       make_bench_command},
      {"profile", "run Nsight Compute on exactly the kernel's launches and export its report to CSV",
       make_profile_command},
      {"compare", "is a new version faster? both timed in turns until the interval of the ratio settles it",
       make_compare_command},
      {"tune",
       "search a kernel's tune() parameters: each configuration judged and timed, the winner compared in "
       "turns",
       make_tune_command},
      {"analyze", "diagnose an Nsight Compute report: bottleneck class, evidence, recommendations",
       make_analyze_command},
      {"kb", "the knowledge base of optimization strategies: list, show, match", make_kb_command},
      {"memory", "the strategy memory: what worked, what did not, where: list, show, query, export, import",
       make_memory_command},
      {"loop", "the optimization loop: one iteration per call, or --agent CMD to run N; with memory",
       make_loop_command},
      {"report", "render a loop run: terminal summary, report.html with charts, or --json",
       make_report_command},
      {"skills", "the skills pack for coding agents: list, install", make_skills_command},
      {"worker",
       "the warm worker that runs measuring commands for --warm clients: serve, start, stop, status",
       make_worker_command},
      {"mcp", "serve kopt's tools to a coding agent over the Model Context Protocol (stdio)",
       make_mcp_command},
      {"completion", "print a shell completion script: completion bash|zsh", make_completion_command},
      {"harness", "the measuring process of bench", make_harness_command, true},
      {"text-pages", "ncu's pages for people, written after a loop's iteration", make_text_pages_command, true},
  };
  return table;
}

CLI::App* add_table_command(CLI::App& app, const command_entry& entry) {
  CLI::App* sub = app.add_subcommand(entry.name, entry.summary);
  if (entry.internal) sub->group("");  // hidden
  return sub;
}

}  // namespace kopt::cli
