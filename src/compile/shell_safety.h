#pragma once
// nvcc hands parts of its command line to a shell of its own: a kernel path or a -D value
// holding `$(cmd)` or a backquote ran `cmd`. kopt therefore never gives nvcc a string a user
// chose unless a shell would read it literally: the source is compiled from a private copy
// under a fixed name, its folder is reached through a link with a fixed name, and -D names and
// values are checked first.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::compile {

// Throws kopt::error (exit 2) for a -D whose name is not an identifier or whose value holds
// a character a shell would expand ($, `, \, a line break).
void check_defines(const std::vector<std::string>& defines);

// Whether a shell would read `path` literally (letters, digits and _ . / + - = , @ % : only).
bool shell_safe(const std::string& text);

// `stem` with every character outside [A-Za-z0-9_.-] replaced by '_' ("" becomes "kernel").
std::string safe_stem(const std::string& stem);

// What nvcc is given instead of the user's paths, inside `build_dir` (which must be
// shell-safe): a copy of `source` under a fixed name, beginning with a #line directive so that
// messages and line info still name the original file, and a link to the source's folder for
// its local #includes.
struct private_source {
  std::filesystem::path copy;          // build_dir/kernel.cu
  std::filesystem::path include_dir;   // build_dir/source_dir -> the source's folder
};
private_source make_private_source(const std::filesystem::path& source, const std::filesystem::path& build_dir);

}  // namespace kopt::compile
