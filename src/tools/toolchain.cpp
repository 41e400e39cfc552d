#include "tools/toolchain.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "core/error.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace kopt::tools {
namespace fs = std::filesystem;

std::string parse_nvcc_version(const std::string& version_text) {
  // "Cuda compilation tools, release 13.0, V13.0.88"
  static const std::regex pattern(R"(release [0-9.]+, V([0-9][0-9.]*))");
  std::smatch match;
  return std::regex_search(version_text, match, pattern) ? match[1].str() : "";
}

std::string parse_ncu_version(const std::string& version_text) {
  // "Version 2025.3.1.0 (build 36398880) (public-release)"
  static const std::regex pattern(R"(Version ([0-9][0-9.]*))");
  std::smatch match;
  return std::regex_search(version_text, match, pattern) ? match[1].str() : "";
}

namespace {

std::vector<fs::path> cuda_bin_dirs() {
  std::vector<fs::path> dirs;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') {
      dirs.push_back(fs::path(value) / "bin");
    }
  }
  dirs.emplace_back("/usr/local/cuda/bin");
  return dirs;
}

using version_parser = std::string (*)(const std::string&);

tool_search search(const std::string& requested, const std::string& name,
                   const std::vector<fs::path>& extra_candidates, version_parser parse_version) {
  tool_search result;
  std::vector<std::string> candidates;
  if (!requested.empty()) {
    candidates.push_back(requested);
  } else {
    candidates.push_back(name);
    for (const auto& dir : cuda_bin_dirs()) candidates.push_back((dir / name).string());
    for (const auto& path : extra_candidates) candidates.push_back(path.string());
  }
  for (const std::string& candidate : candidates) {
    const std::string shown = candidate == name ? "PATH" : candidate;
    if (std::find(result.looked_in.begin(), result.looked_in.end(), shown) != result.looked_in.end()) continue;
    result.looked_in.push_back(shown);
    const auto path = find_executable(candidate);
    if (!path) continue;
    const process_result run = run_process({.argv = {path->string(), "--version"},
                                            .timeout = std::chrono::seconds(60)});
    const std::string text = run.stdout_text + run.stderr_text;
    const std::string version = parse_version(text);
    if (version.empty()) {
      result.refused.push_back(fmt::format("{}: `--version` {} and printed no {} version", path->string(),
                                           run.describe_end(), name));
      continue;
    }
    result.tool = located_tool{*path, version, std::string(trim(text))};
    return result;
  }
  return result;
}

std::vector<fs::path> nsight_compute_installs() {
  // Standalone installs live in /opt/nvidia/nsight-compute/<version>/ncu; newest first.
  std::vector<fs::path> found;
  std::error_code ec;
  const fs::path root = "/opt/nvidia/nsight-compute";
  if (!fs::is_directory(root, ec)) return found;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (fs::exists(entry.path() / "ncu", ec)) found.push_back(entry.path() / "ncu");
  }
  std::sort(found.rbegin(), found.rend());
  return found;
}

// What the error for a required tool that is not there says.
struct missing_tool_advice {
  std::string name;          // "nvcc"
  std::string flag;          // the option that names it: "--nvcc-bin"
  std::string real_one;      // what a refused program should have been: "the CUDA toolkit's nvcc"
  std::string existing_one;  // for a path where nothing is: "an existing nvcc"
  std::string nowhere;       // the whole message when the search found it nowhere
};

// The tool `found`, else the error: the program at `requested` is not the tool, nothing is
// there, or (nothing requested) the search found it nowhere.
located_tool found_or_thrown(const tool_search& found, const std::string& requested,
                             const missing_tool_advice& advice) {
  if (found.tool) return *found.tool;
  if (!requested.empty()) {
    if (!found.refused.empty()) {
      throw error(fmt::format("{}={} is not {}: {}; pass the path of {}", advice.flag, requested, advice.name,
                              found.refused.front(), advice.real_one));
    }
    throw error(fmt::format("{} not found at {}={}: pass the path of {}", advice.name, advice.flag, requested,
                            advice.existing_one));
  }
  throw error(advice.nowhere, fmt::format("looked in: {}", join(found.looked_in, ", ")));
}

}  // namespace

tool_search find_nvcc(const std::string& requested) {
  return search(requested, "nvcc", {}, parse_nvcc_version);
}

tool_search find_ncu(const std::string& requested) {
  return search(requested, "ncu", nsight_compute_installs(), parse_ncu_version);
}

tool_search find_compute_sanitizer() {
  std::vector<fs::path> installs;
  for (const auto& dir : cuda_bin_dirs()) installs.push_back(dir.parent_path() / "compute-sanitizer" / "compute-sanitizer");
  return search("", "compute-sanitizer", installs, parse_sanitizer_version);
}

located_tool require_compute_sanitizer() {
  tool_search found = find_compute_sanitizer();
  if (found.tool) return *found.tool;
  throw error("compute-sanitizer not found: it comes with the CUDA toolkit; put the toolkit's bin folder on PATH",
              fmt::format("looked in: {}", join(found.looked_in, ", ")));
}

located_tool require_nvcc(const std::string& requested) {
  return found_or_thrown(find_nvcc(requested), requested,
                         {"nvcc", "--nvcc-bin", "the CUDA toolkit's nvcc", "an existing nvcc",
                          "nvcc not found: install the CUDA toolkit, put its bin folder on PATH, or pass --nvcc-bin"});
}

located_tool require_ncu(const std::string& requested) {
  return found_or_thrown(find_ncu(requested), requested,
                         {"ncu", "--ncu-bin", "Nsight Compute's ncu", "an existing ncu (Nsight Compute)",
                          "ncu (Nsight Compute) not found: install Nsight Compute (it comes with the CUDA toolkit), "
                          "put its folder on PATH, or pass --ncu-bin"});
}

std::string parse_sanitizer_version(const std::string& version_text) {
  const std::size_t at = version_text.rfind("Version ");
  if (at == std::string::npos) return "";
  const std::size_t begin = at + 8;
  std::size_t end = begin;
  while (end < version_text.size() && (std::isdigit(static_cast<unsigned char>(version_text[end])) || version_text[end] == '.')) ++end;
  return version_text.substr(begin, end - begin);
}

}  // namespace kopt::tools
