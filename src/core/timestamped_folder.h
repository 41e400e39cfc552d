#pragma once
// A new folder for one run of a command (a loop's run, a tune): PREFIX_<UTC time> under a parent
// folder, made as needed. Two commands started in the same second get PREFIX_<time> and
// PREFIX_<time>_2: create_directory is atomic, so each gets a folder of its own.

#include <filesystem>
#include <string>

namespace kopt {

// Throws kopt::error when the parent cannot be made (naming `fix`, what the user can pass
// instead) or no free name is left.
std::filesystem::path create_timestamped_folder(const std::filesystem::path& parent,
                                                const std::string& prefix, const std::string& fix);

}  // namespace kopt
