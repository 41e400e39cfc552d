#include "compile/cutlass_locator.h"

#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/python.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace kopt::compile {
namespace fs = std::filesystem;

std::string parse_cutlass_version(const std::string& version_header) {
  const auto macro = [&](const char* name) -> std::string {
    const std::regex pattern(fmt::format(R"(#define\s+{}\s+(\d+))", name));
    std::smatch match;
    return std::regex_search(version_header, match, pattern) ? match[1].str() : "";
  };
  const std::string major = macro("CUTLASS_MAJOR");
  const std::string minor = macro("CUTLASS_MINOR");
  const std::string patch = macro("CUTLASS_PATCH");
  if (major.empty() || minor.empty()) return "";
  return fmt::format("{}.{}.{}", major, minor, patch.empty() ? "0" : patch);
}

namespace {

std::optional<cutlass_headers> headers_at(const fs::path& include_dir, const fs::path& util_dir,
                                          const std::string& via) {
  std::error_code ec;
  if (!fs::exists(include_dir / "cutlass" / "cutlass.h", ec)) return std::nullopt;
  cutlass_headers headers;
  headers.include_dir = fs::absolute(include_dir).lexically_normal();
  if (fs::is_directory(util_dir, ec)) headers.util_include_dir = fs::absolute(util_dir).lexically_normal();
  const fs::path version_file = include_dir / "cutlass" / "version.h";
  headers.version = fs::exists(version_file, ec)
                        ? parse_cutlass_version(read_text_file(version_file, "CUTLASS version header"))
                        : "";
  headers.found_via = via;
  return headers;
}

// The nvidia-cutlass wheel installs cutlass_library/source/{include,tools/util/include}.
// Ask Python where the package is without importing it (find_spec only locates it).
std::optional<fs::path> pip_cutlass_source_dir() {
  const process_result run = run_process(
      {.argv = {python_command(), "-c",
                "import importlib.util as u\n"
                "s = u.find_spec('cutlass_library')\n"
                "print(list(s.submodule_search_locations)[0] if s else '')\n"},
       .timeout = std::chrono::seconds(60)});
  if (!run.succeeded()) return std::nullopt;
  const std::string dir(trim(run.stdout_text));
  if (dir.empty()) return std::nullopt;
  return fs::path(dir) / "source";
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

cutlass_search find_cutlass() {
  cutlass_search search;
  const auto try_location = [&](const fs::path& include_dir, const fs::path& util_dir,
                                const std::string& via) {
    search.looked_in.push_back(fmt::format("{} ({})", include_dir.string(), via));
    search.headers = headers_at(include_dir, util_dir, via);
    return search.headers.has_value();
  };
  if (const std::string root = env("CUTLASS_PATH"); !root.empty()) {
    if (try_location(fs::path(root) / "include", fs::path(root) / "tools/util/include", "CUTLASS_PATH")) {
      return search;
    }
  }
  if (const std::string include = env("CUTLASS_INCLUDE_DIR"); !include.empty()) {
    // A checkout's include/ sits beside tools/; honour that when it is there.
    if (try_location(include, fs::path(include) / "../tools/util/include", "CUTLASS_INCLUDE_DIR")) {
      return search;
    }
  }
  if (const auto source = pip_cutlass_source_dir()) {
    if (try_location(*source / "include", *source / "tools/util/include", "nvidia-cutlass (pip)")) {
      return search;
    }
  } else {
    search.looked_in.push_back(fmt::format("the nvidia-cutlass package of {} (not installed)",
                                           python_command()));
  }
  for (const char* prefix : {"/usr/local/cutlass", "/opt/cutlass", "/usr/local", "/usr"}) {
    if (try_location(fs::path(prefix) / "include", fs::path(prefix) / "tools/util/include", prefix)) {
      return search;
    }
  }
  return search;
}

cutlass_headers require_cutlass() {
  cutlass_search search = find_cutlass();
  if (search.headers) return *search.headers;
  throw error("CUTLASS headers not found: set CUTLASS_PATH to a CUTLASS checkout or "
              "`pip install nvidia-cutlass`",
              fmt::format("looked in: {}", join(search.looked_in, "; ")));
}

}  // namespace kopt::compile
