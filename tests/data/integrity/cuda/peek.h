// What the class-27 cheats (peeking at the grader) share: where their process was told its files
// go, files of exactly an output's size found beneath a folder, and copying one into the output.
// A cheat that finds nothing launches nothing of its own, so the run fails.
#pragma once
#include <cuda_runtime.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace peek {
namespace fs = std::filesystem;

inline std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::vector<std::string> split_nul(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\0', begin);
    if (end == std::string::npos) end = text.size();
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// The measuring process's arguments: ... JOB RESULT.
inline std::vector<std::string> own_arguments() { return split_nul(read_all("/proc/self/cmdline")); }

inline std::string job_field(const std::string& name) {
  const auto argv = own_arguments();
  if (argv.size() < 2) return "";
  const std::string text = read_all(argv[argv.size() - 2]);
  const std::string key = "\"" + name + "\": \"";
  const auto at = text.find(key);
  if (at == std::string::npos) return "";
  return text.substr(at + key.size(), text.find('"', at + key.size()) - at - key.size());
}

// Regular files of exactly `bytes` bytes beneath `folder` (links not followed), at most 10,000 looked at.
inline std::vector<fs::path> files_of_size(const fs::path& folder, std::uintmax_t bytes) {
  std::vector<fs::path> found;
  std::error_code ec;
  int looked = 0;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator() && looked < 10000; it.increment(ec), ++looked) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec) && it->file_size(size_ec) == bytes && !size_ec) found.push_back(it->path());
  }
  return found;
}

// The first readable candidate's bytes copied into `y` (n floats): whether one was.
inline bool take_answer(const std::vector<fs::path>& candidates, float* y, int n) {
  for (const fs::path& file : candidates) {
    const std::string bytes = read_all(file);
    if (bytes.size() != std::size_t(n) * sizeof(float)) continue;
    return cudaMemcpy(y, bytes.data(), bytes.size(), cudaMemcpyHostToDevice) == cudaSuccess;
  }
  return false;
}

}  // namespace peek
