#pragma once
// kopt's companion files sit beside its executable, in a prefix layout that a build folder,
// `cmake --install` and the Python wheel share: bin/kopt, lib/libkopt_harness_abi.so,
// share/kopt/kopt_runner.py, share/kopt/skills, share/doc/kopt (cmake/companion_files.cmake
// places them). Carrying kopt to another machine means carrying that folder.

#include <filesystem>
#include <string_view>

namespace kopt {

// The running kopt, as the system started it (/proc/self/exe).
std::filesystem::path kopt_executable();

// The prefix: the folder above the running executable's bin/.
std::filesystem::path install_prefix();

// `relative` under the prefix; throws kopt::error naming the missing file and the fix.
std::filesystem::path companion_file(std::string_view relative);

inline constexpr std::string_view python_runner_file = "share/kopt/kopt_runner.py";
// kopt tune's model-based strategy (tune/model_proposer.h).
inline constexpr std::string_view tune_strategy_file = "share/kopt/kopt_tune_strategy.py";
inline constexpr std::string_view harness_abi_file = "lib/libkopt_harness_abi.so";
inline constexpr std::string_view skills_folder = "share/kopt/skills";  // one folder per skill, with its SKILL.md
// README.md, docs/ and examples/ at their places in the repository, so that a repository-relative
// link resolves under it.
inline constexpr std::string_view documents_folder = "share/doc/kopt";

}  // namespace kopt
