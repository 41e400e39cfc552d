#pragma once
// File access with the guarantees kopt promises: clear errors for missing inputs and
// atomic writes (temp file + rename) so that a killed kopt never leaves half a file.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace kopt {

// [bytes] the most read_text_file reads: larger than any kernel, reference or ncu export kopt
// expects (a 6,567-launch raw CSV is ~100 MB), small enough to refuse a runaway input.
inline constexpr std::uintmax_t max_text_file_bytes = std::uintmax_t{1} << 30;

// Reads a whole regular file; throws kopt::error naming the file (and `what` it was meant to
// be) when it is missing, a directory, not a regular file (FIFO, device), or over the limit.
std::string read_text_file(const std::filesystem::path& path, std::string_view what = "file");

// Writes `content` to `path` as what is there asks (core/file_output.cpp): a new or regular
// file appears whole (a temp file beside it, flushed, renamed over it) with the mode and owner
// the file had; a link is followed to its target; a FIFO or a character device is written
// through; `-` and /dev/stdout are standard output. Creates missing parent directories. Throws
// kopt::error naming the path for a folder, a socket, a link that loops, or a failed write.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// The directory for kopt's caches: $KOPT_CACHE_DIR, else $XDG_CACHE_HOME/kopt,
// else $HOME/.cache/kopt, else a folder under the system temp dir.
std::filesystem::path cache_root();

}  // namespace kopt
