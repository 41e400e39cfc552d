#pragma once
// A run ends with the confirmed best in the kernel file (the Python toolkit left the last version
// there, possibly a rejected one): after the final confirmation, the kernel file is given the
// best version's snapshot, and what it held, the last version written, is kept beside it as
// <stem>_last<ext>. Nothing moves when no version was confirmed or the file already holds it.

#include <filesystem>
#include <string>

#include "loop/confirmation_record.h"
#include "loop/run_manifest.h"

namespace kopt::loop {

// <dir>/<stem>_last<ext> for `kernel_file`.
std::filesystem::path last_version_file(const std::filesystem::path& kernel_file);

// Does it; returns the line that says what was done ("" when nothing was). Throws kopt::error
// when the best's snapshot no longer has the hash the run recorded for it (nothing is written).
std::string write_back_best(const run_manifest& m, const std::filesystem::path& run_dir, const final_confirmation& c);

}  // namespace kopt::loop
