#include "skill_commands.h"

#include <algorithm>
#include <regex>

#include "core/files.h"
#include "core/text.h"
#include "loop/command_words.h"

namespace kopt::testing {
namespace {
namespace fs = std::filesystem;

// The line up to a `#` that starts a shell comment (after a blank, outside quotes).
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return std::string(trim(line.substr(0, i)));
    }
  }
  return std::string(trim(line));
}

void add_command(std::vector<skill_command>& found, const std::string& skill, const std::string& line) {
  std::vector<std::string> words = loop::split_command_words(line);
  words.erase(words.begin());
  found.push_back({skill, line, words});
}

void add_fenced_and_inline(std::vector<skill_command>& found, const std::string& skill, const std::string& text) {
  static const std::regex span("`(kopt [^`]+)`");
  bool in_fence = false;
  std::string pending;  // a fenced line continued with a backslash
  for (const std::string& raw : split_lines(text)) {
    if (raw.rfind("```", 0) == 0) {
      in_fence = !in_fence;
      continue;
    }
    if (!in_fence) {
      for (auto it = std::sregex_iterator(raw.begin(), raw.end(), span); it != std::sregex_iterator(); ++it) {
        const std::string command = (*it)[1].str();
        if (loop::split_command_words(command).size() >= 3) add_command(found, skill, command);
      }
      continue;
    }
    std::string line = pending + without_comment(raw);
    pending.clear();
    if (!line.empty() && line.back() == '\\') {
      pending = line.substr(0, line.size() - 1) + " ";
      continue;
    }
    if (line.rfind("kopt ", 0) == 0) add_command(found, skill, line);
  }
}

bool has_word(const skill_command& command, const std::string& word) {
  return std::find(command.words.begin(), command.words.end(), word) != command.words.end();
}

void copy_into_project(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

}  // namespace

std::vector<skill_command> skill_commands(const fs::path& skills_dir) {
  std::vector<fs::path> skills;
  for (const auto& entry : fs::directory_iterator(skills_dir)) {
    if (fs::exists(entry.path() / "SKILL.md")) skills.push_back(entry.path());
  }
  std::sort(skills.begin(), skills.end());
  std::vector<skill_command> found;
  for (const fs::path& skill : skills) {
    add_fenced_and_inline(found, skill.filename().string(), read_text_file(skill / "SKILL.md", "skill"));
  }
  return found;
}

bool needs_gpu(const skill_command& command) {
  const std::string& verb = command.words.empty() ? std::string() : command.words.front();
  return verb == "bench" || verb == "compare" || verb == "profile" || verb == "loop";
}

bool starts_a_run(const skill_command& command) {
  return !command.words.empty() && command.words.front() == "loop" && has_word(command, "--run-dir") &&
         has_word(command, "--new-run");
}

std::string option_value(const skill_command& command, const std::string& option) {
  const auto at = std::find(command.words.begin(), command.words.end(), option);
  return at == command.words.end() || at + 1 == command.words.end() ? "" : *(at + 1);
}

bool continues_a_run(const skill_command& command) {
  return !command.words.empty() && command.words.front() == "loop" && has_word(command, "--run-dir") &&
         !has_word(command, "--new-run") && !has_word(command, "--agent") && !has_word(command, "--finish");
}

void write_skills_project(const fs::path& source_dir, const fs::path& project) {
  copy_into_project(source_dir / "examples/softmax_naive.cu", project / "softmax.cu");
  copy_into_project(source_dir / "examples/softmax_ref.py", project / "softmax_ref.py");
  copy_into_project(source_dir / "examples/softmax_block.cu", project / "softmax_v2.cu");
  copy_into_project(source_dir / "examples/triton_softmax.py", project / "softmax_triton.py");
  copy_into_project(source_dir / "tests/skills/data/my_agent.py", project / "my_agent.py");
}

void write_gpu_results(const fs::path& source_dir, const fs::path& project) {
  const fs::path ncu = source_dir / "tests/data/ncu/h200";
  for (const char* page : {"raw", "details", "source"}) {
    copy_into_project(ncu / ("softmax_naive_" + std::string(page) + ".csv"),
              project / "softmax_profile" / ("ncu_" + std::string(page) + ".csv"));
  }
  fs::create_directories(project / "optimize_runs");
  fs::copy(source_dir / "tests/data/report/h200_softmax_run", project / "optimize_runs/softmax", fs::copy_options::recursive);
}

}  // namespace kopt::testing
