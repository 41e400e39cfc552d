#pragma once
// The skills pack kopt ships (share/kopt/skills/NAME/SKILL.md and the skill's own files) and
// what an installed skill needs beside it: the documents and examples its SKILL.md links to
// (share/doc/kopt, laid out as in the repository), copied into the skill's folder at the same
// relative paths, so that every link resolves where the agent reads the skill.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::cli {

struct skill_file {
  std::filesystem::path relative;  // inside the skill's folder: "SKILL.md", "docs/loop.md"
  std::string content;
};

struct shipped_skill {
  std::string name;                // its folder's name, as its front matter says
  std::string description;
  std::filesystem::path file;      // the shipped SKILL.md
  std::vector<skill_file> files;   // SKILL.md first, then the skill's own files, then linked documents
};

// Every shipped skill, sorted by name. Throws kopt::error (reinstall kopt) when a skill has no
// front matter naming it or links a file kopt does not ship.
std::vector<shipped_skill> shipped_skills();

// The targets of a markdown text's relative links ("docs/loop.md" of "[x](docs/loop.md#y)"),
// in order of appearance: no URL, no in-page anchor, no absolute path.
std::vector<std::string> relative_links(const std::string& markdown);

}  // namespace kopt::cli
