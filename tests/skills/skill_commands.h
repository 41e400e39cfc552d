#pragma once
// The commands the skills pack shows (skills/*/SKILL.md): every line of a ```sh block that
// starts with `kopt`, split into words as a shell would. The doc-tests run them, so that what
// the pack tells an agent keeps working; ```text blocks are templates and are not run.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::testing {

struct skill_command {
  std::string skill;               // the skill's folder name
  std::string line;                // as written
  std::vector<std::string> words;  // "kopt" dropped
};

std::vector<skill_command> skill_commands(const std::filesystem::path& skills_dir);

// Whether the command needs a GPU (bench, profile, loop): the GPU doc-test runs those.
bool needs_gpu(const skill_command& command);

// A scratch folder holding what the commands read, as in the repository (examples/ and the
// ncu fixtures), so that what they write lands there and not in the source tree.
void copy_command_inputs(const std::filesystem::path& source_dir, const std::filesystem::path& scratch);

}  // namespace kopt::testing
