#pragma once
// The Python toolkit's README commands and its loop skill's, as kopt runs them: `python
// .../kernel-benchmark/scripts/benchmark.py ARGS` becomes `kopt bench ARGS` and `python
// .../operator-optimize-loop/scripts/optimize_loop.py ARGS` becomes `kopt loop ARGS`, the
// arguments unchanged (`--ref=`, `--backend=`, `--max-iterations=`, `--M=4096` dimensions,
// `--preflight-only`). The kernels are kopt's examples, at sizes that run in seconds.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::testing {

struct toolkit_command {
  std::string what;               // the README's words for it
  std::vector<std::string> args;  // kopt's arguments: the command word, then the toolkit's own
};

// With the examples copied into `work` (copy_toolkit_examples).
std::vector<toolkit_command> toolkit_readme_commands(const std::filesystem::path& work);

// The examples the commands name, copied into `work` (a run folder lands beside them).
void copy_toolkit_examples(const std::filesystem::path& work);

}  // namespace kopt::testing
