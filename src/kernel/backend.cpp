#include "kernel/backend.h"

#include <fmt/format.h>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/text.h"

namespace kopt::kernel {

std::string_view to_string(backend b) { return enumerator_name(b); }

backend parse_backend_name(std::string_view name) {
  const std::string lower = to_lower(name);
  if (lower == "cuda") return backend::cuda;
  if (lower == "cutlass") return backend::cutlass;
  if (lower == "triton") return backend::triton;
  throw error(fmt::format("unknown backend '{}': choose cuda, cutlass, triton or auto (from the file)", name));
}

std::optional<backend> parse_backend_request(std::string_view name) {
  if (name.empty() || to_lower(name) == "auto") return std::nullopt;
  return parse_backend_name(name);
}

bool includes_cutlass_headers(std::string_view source) {
  // An #include directive (possibly indented, possibly with spaces after '#') whose path
  // starts with cutlass/ or cute/. Read line by line with plain scans: std::regex recursed once
  // per character and a line of 30,000 spaces overflowed the stack.
  const auto skip_blanks = [](std::string_view& s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  };
  const auto take = [](std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
  };
  while (!source.empty()) {
    const std::size_t end = source.find_first_of("\r\n");
    std::string_view line = source.substr(0, end);
    source.remove_prefix(end == std::string_view::npos ? source.size() : end + 1);
    skip_blanks(line);
    if (!take(line, "#")) continue;
    skip_blanks(line);
    if (!take(line, "include")) continue;
    skip_blanks(line);
    if (!take(line, "<") && !take(line, "\"")) continue;
    if (take(line, "cutlass/") || take(line, "cute/")) return true;
  }
  return false;
}

backend infer_backend(const std::filesystem::path& kernel_file, std::string_view source,
                      std::optional<backend> requested) {
  const std::string extension = to_lower(kernel_file.extension().string());
  const bool is_python = extension == ".py";
  const bool is_cuda = extension == ".cu" || extension == ".cuh";
  if (!is_python && !is_cuda) {
    throw error(fmt::format("cannot tell the backend of {}: kopt takes .cu files (CUDA, CUTLASS) "
                            "and .py files (Triton)",
                            kernel_file.string()));
  }
  if (requested) {
    if (*requested == backend::triton && !is_python) {
      throw error(fmt::format("--backend=triton needs a .py module with setup() and run_kernel(), "
                              "but {} is a CUDA source: drop --backend or pass --backend=cuda",
                              kernel_file.string()));
    }
    if (*requested != backend::triton && is_python) {
      throw error(fmt::format("--backend={} needs a .cu file, but {} is a Python module: "
                              "use --backend=triton",
                              to_string(*requested), kernel_file.string()));
    }
    return *requested;
  }
  if (is_python) return backend::triton;
  return includes_cutlass_headers(source) ? backend::cutlass : backend::cuda;
}

}  // namespace kopt::kernel
