#include "compile/compiler.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "compile/cutlass_locator.h"
#include "compile/exported_symbols.h"
#include "compile/include_scan.h"
#include "compile/shell_safety.h"
#include "tools/toolchain.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/json_io.h"
#include "core/subprocess.h"

namespace kopt::compile {
namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

namespace {

constexpr int cache_entry_version = 1;
constexpr const char* entry_file_name = "build.json";

// Everything but the output path and the source, which the command adds last.
// `source_dir` is where the kernel's local headers are found.
std::vector<std::string> nvcc_flags(const compile_request& request, const arch_target& arch,
                                    const std::optional<cutlass_headers>& cutlass, const fs::path& source_dir) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-lineinfo", "-shared",
                                    "-Xcompiler", "-fPIC", "--resource-usage"};
  for (const auto& flag : gencode_flags(arch)) flags.push_back(flag);
  flags.push_back("-I" + source_dir.string());
  if (cutlass) {
    flags.push_back("-I" + cutlass->include_dir.string());
    if (cutlass->util_include_dir) flags.push_back("-I" + cutlass->util_include_dir->string());
    // CUTLASS 3.x+ calls constexpr host functions from device code.
    flags.push_back("--expt-relaxed-constexpr");
  }
  for (const auto& define : request.defines) flags.push_back("-D" + define);
  return flags;
}

std::string cache_key_for(const tools::located_tool& nvcc, const std::vector<std::string>& flags,
                          const fs::path& source, const std::string& cutlass_version) {
  hasher h;
  h.update_field(fmt::format("kopt-compile-cache/v{}", cache_entry_version));
  h.update_field(nvcc.version_text);
  h.update_field(cutlass_version);
  for (const auto& flag : flags) h.update_field(flag);
  for (const fs::path& file : local_include_closure(source)) {
    // Headers by their path relative to the kernel's folder, so that the name matters too.
    h.update_field(file.lexically_relative(fs::absolute(source).parent_path()).string());
    h.update_field(read_text_file(file, "kernel source"));
  }
  return h.hex_digest();
}

json entry_to_json(const compile_result& r) {
  json kernels = json::array();
  for (const auto& k : r.kernels) kernels.push_back(to_json(k));
  return with_schema("compile_cache_entry", cache_entry_version,
                     json{{"library", r.library.filename().string()},
                          {"command", r.command},
                          {"arch", r.arch.name},
                          {"nvcc_version", r.nvcc_version},
                          {"cutlass_version", r.cutlass_version},
                          {"build_seconds", r.build_seconds},
                          {"compiler_output", r.compiler_output},
                          {"kernels", kernels}});
}

// Fills `result` from a finished cache entry; false when the entry is absent or unreadable
// (then it is rebuilt).
bool load_entry(const fs::path& entry_dir, compile_result& result) {
  std::error_code ec;
  const fs::path entry_file = entry_dir / entry_file_name;
  if (!fs::exists(entry_file, ec)) return false;
  try {
    const json entry = read_json_file(entry_file);
    const fs::path library = entry_dir / entry.at("library").get<std::string>();
    if (!fs::exists(library, ec)) return false;
    result.library = library;
    result.command = entry.at("command").get<std::vector<std::string>>();
    result.compiler_output = entry.at("compiler_output").get<std::string>();
    result.build_seconds = entry.at("build_seconds").get<double>();
    result.kernels.clear();
    for (const auto& k : entry.at("kernels")) result.kernels.push_back(kernel_resources_from_json(k));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

fs::path make_temp_dir(const fs::path& parent) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  std::string pattern = (parent / ".build-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw error(fmt::format("cannot create a build folder in the compile cache {}: {} "
                            "(set KOPT_CACHE_DIR to a writable folder)",
                            parent.string(), std::strerror(errno)));
  }
  return pattern;
}

}  // namespace

compile_result compile_kernel(const compile_request& request) {
  const auto started = steady::now();
  compile_result result;
  const fs::path source = fs::absolute(request.kernel_file).lexically_normal();
  read_text_file(source, "kernel file");  // a clear error before anything else
  check_defines(request.defines);

  const tools::located_tool nvcc = tools::require_nvcc(request.nvcc_bin);
  result.nvcc_path = nvcc.path.string();
  result.nvcc_version = nvcc.version;
  result.arch = request.arch.empty() ? default_arch(request.device) : parse_arch(request.arch);

  std::optional<cutlass_headers> cutlass;
  if (request.backend == kernel::backend::cutlass) {
    cutlass = require_cutlass();
    result.cutlass_version = cutlass->version;
  }
  // The command as the user would read it (original paths): the cache key and the result's
  // record. nvcc itself runs on the private copy (shell_safety.h).
  const std::vector<std::string> flags = nvcc_flags(request, result.arch, cutlass, source.parent_path());
  result.cache_key = cache_key_for(nvcc, flags, source, result.cutlass_version);

  const fs::path cache_dir = cache_root() / "compile";
  if (!shell_safe(cache_dir.string())) {
    throw error(fmt::format("the compile cache folder {} holds characters nvcc would hand to a shell; set "
                            "KOPT_CACHE_DIR to a path of letters, digits and _ . / - only",
                            cache_dir.string()));
  }
  const fs::path entry_dir = cache_dir / result.cache_key.substr(0, 2) / result.cache_key;
  const std::string library_name = "lib" + safe_stem(source.stem().string()) + ".so";

  result.command = {nvcc.path.string()};
  result.command.insert(result.command.end(), flags.begin(), flags.end());
  result.command.insert(result.command.end(), {"-o", (entry_dir / library_name).string(), source.string()});

  if (load_entry(entry_dir, result)) {
    result.status = compile_status::cache_hit;
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - started);
    return result;
  }

  // Build in a private folder, then publish it with one rename: a killed kopt or a
  // concurrent compile of the same key never exposes half an entry.
  const fs::path build_dir = make_temp_dir(cache_dir);
  const private_source copy = make_private_source(source, build_dir);
  std::vector<std::string> argv = {nvcc.path.string()};
  for (const std::string& flag : nvcc_flags(request, result.arch, cutlass, copy.include_dir)) argv.push_back(flag);
  argv.insert(argv.end(), {"-o", (build_dir / library_name).string(), copy.copy.string()});
  // A CUTLASS kernel takes nvcc a minute: say so on a terminal, and nothing otherwise.
  const bool terminal = request.announce && ::isatty(STDERR_FILENO) != 0;
  if (terminal) std::fprintf(stderr, "kopt: compiling %s with nvcc for %s ...", source.filename().c_str(), result.arch.name.c_str());
  const process_result run = run_process({.argv = argv, .working_dir = build_dir,
                                          .timeout = request.timeout});
  if (terminal) std::fprintf(stderr, " %.1f s\n", static_cast<double>(run.elapsed.count()) / 1000.0);
  result.compiler_output = run.stdout_text + run.stderr_text;
  result.build_seconds = static_cast<double>(run.elapsed.count()) / 1000.0;
  std::error_code ec;
  if (!run.succeeded()) {
    fs::remove_all(build_dir, ec);
    result.status = compile_status::failed;
    result.failure_reason = fmt::format("nvcc {}", run.describe_end());
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - started);
    return result;
  }
  if (!exports_function(build_dir / library_name, "solve")) {
    // Nothing could call it: a declaration alone, a solve() without extern "C" (a mangled
    // name), or one the preprocessor left out.
    fs::remove_all(build_dir, ec);
    result.status = compile_status::failed;
    result.failure_reason = fmt::format(
        "{} exports no solve(): define extern \"C\" void solve(...) in it (a declaration alone, a solve() "
        "without extern \"C\", or one left out by the preprocessor builds no entry point)",
        source.filename().string());
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - started);
    return result;
  }
  result.kernels = parse_ptxas_resource_usage(result.compiler_output);
  result.library = entry_dir / library_name;
  write_json_file(build_dir / entry_file_name, entry_to_json(result));

  fs::create_directories(entry_dir.parent_path(), ec);
  if (::rename(build_dir.c_str(), entry_dir.c_str()) != 0) {
    // Another kopt published the same key first; its entry is equivalent.
    fs::remove_all(build_dir, ec);
    if (!load_entry(entry_dir, result)) {
      throw error(fmt::format("cannot store the compiled library in {}: {}", entry_dir.string(),
                              std::strerror(errno)));
    }
  }
  result.status = compile_status::built;
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - started);
  return result;
}

}  // namespace kopt::compile
