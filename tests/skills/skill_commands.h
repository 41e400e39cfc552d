#pragma once
// The commands the skills pack shows (skills/*/SKILL.md), as an agent reading them would find
// them: every line of a fenced block, whatever its language, that starts with `kopt` (a line
// ending in a backslash goes on, a `#` comment is dropped), and every inline code span that is
// a kopt command with arguments (`kopt memory list`; a bare `kopt loop` names the command). The
// doc-tests run them, so that what the pack tells an agent keeps working.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::testing {

struct skill_command {
  std::string skill;               // the skill's folder name
  std::string line;                // as written
  std::vector<std::string> words;  // "kopt" dropped
};

// The commands of every skill under `skills_dir`, skill by skill (sorted by name), each in the
// order it appears.
std::vector<skill_command> skill_commands(const std::filesystem::path& skills_dir);

// Whether the command needs a GPU (bench, compare, profile, loop): the GPU doc-test runs those.
bool needs_gpu(const skill_command& command);

// Whether the command starts a named loop run (`kopt loop ... --run-dir DIR --new-run`).
bool starts_a_run(const skill_command& command);

// Whether the command continues a loop run (`kopt loop ... --run-dir` without --new-run,
// --agent or --finish): an agent writes the next version before it.
bool continues_a_run(const skill_command& command);

// The word after `option` in the command ("" when it has none).
std::string option_value(const skill_command& command, const std::string& option);

// The project the skills' commands are written for, in `project`: softmax.cu (the naive
// example), softmax_ref.py, softmax_v2.cu (the block-per-row one), softmax_triton.py and the
// candidates' program my_agent.py, from the repository at `source_dir`.
void write_skills_project(const std::filesystem::path& source_dir, const std::filesystem::path& project);

// What a GPU would have written before the commands that read it, for a machine without one:
// the profile of softmax.cu (an H200's exports) and a loop run (a real H200 run of it).
void write_gpu_results(const std::filesystem::path& source_dir, const std::filesystem::path& project);

}  // namespace kopt::testing
