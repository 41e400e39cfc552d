#include "skill_commands.h"

#include "core/files.h"
#include "core/text.h"
#include "loop/command_words.h"

namespace kopt::testing {
namespace fs = std::filesystem;

std::vector<skill_command> skill_commands(const fs::path& skills_dir) {
  std::vector<skill_command> found;
  for (const auto& entry : fs::directory_iterator(skills_dir)) {
    const fs::path file = entry.path() / "SKILL.md";
    if (!fs::exists(file)) continue;
    bool in_sh = false;
    for (const std::string& line : split_lines(read_text_file(file, "skill"))) {
      if (line.rfind("```", 0) == 0) {
        in_sh = !in_sh && line == "```sh";
        continue;
      }
      if (!in_sh || line.rfind("kopt ", 0) != 0) continue;
      std::vector<std::string> words = loop::split_command_words(line);
      words.erase(words.begin());
      found.push_back({entry.path().filename().string(), line, words});
    }
  }
  return found;
}

bool needs_gpu(const skill_command& command) {
  const std::string& verb = command.words.empty() ? std::string() : command.words.front();
  return verb == "bench" || verb == "compare" || verb == "profile" || verb == "loop";
}

void copy_command_inputs(const fs::path& source_dir, const fs::path& scratch) {
  fs::copy(source_dir / "examples", scratch / "examples", fs::copy_options::recursive);
  fs::create_directories(scratch / "tests/data/ncu");
  fs::copy(source_dir / "tests/data/ncu/h200", scratch / "tests/data/ncu/h200", fs::copy_options::recursive);
}

}  // namespace kopt::testing
