#pragma once
// Finding the CUDA tools (nvcc, ncu) and reading their versions.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt::tools {

struct located_tool {
  std::filesystem::path path;       // absolute
  std::string version;              // "13.0.88" for nvcc, "2025.3.1.0" for ncu
  std::string version_text;         // the tool's own --version output
};

struct tool_search {
  std::optional<located_tool> tool;
  std::vector<std::string> looked_in;  // every place tried, for the error message
  // Programs found but refused: their `--version` printed no version of the tool, so kopt
  // cannot tell they are what they claim ("/bin/true: `--version` printed no nvcc version").
  std::vector<std::string> refused;
};

// `requested` is --nvcc-bin / --ncu-bin (a path or a name on PATH); empty means search
// PATH, $CUDA_HOME/bin, $CUDA_PATH/bin and /usr/local/cuda/bin (and, for ncu, the
// Nsight Compute install folders under /opt/nvidia).
tool_search find_nvcc(const std::string& requested);
tool_search find_ncu(const std::string& requested);

// compute-sanitizer: the toolkit's bin folders and its compute-sanitizer folder.
tool_search find_compute_sanitizer();
// Throws kopt::error naming where it looked and what to install.
located_tool require_compute_sanitizer();

// Throws kopt::error ("nvcc not found ...: install the CUDA toolkit or pass --nvcc-bin").
located_tool require_nvcc(const std::string& requested);
// Throws kopt::error ("ncu (Nsight Compute) not found ...: install Nsight Compute or pass --ncu-bin").
located_tool require_ncu(const std::string& requested);

// Pure parsers of `--version` output.
std::string parse_nvcc_version(const std::string& version_text);  // "13.0.88" or ""
std::string parse_ncu_version(const std::string& version_text);   // "2025.3.1.0" or ""
// "Version 2025.3.1.0" anywhere in the text -> "2025.3.1.0", else ""
std::string parse_sanitizer_version(const std::string& version_text);

}  // namespace kopt::tools
