#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/compile_failure.h"
#include "cli/device_option.h"
#include "cli/terminal.h"
#include "compile/compiler.h"
#include "compile/compiler_warnings.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "kernel/backend.h"
#include "pipeline/compile_requests.h"

namespace kopt::cli {
namespace {

const char* status_name(compile::compile_status status) {
  switch (status) {
    case compile::compile_status::built: return "built";
    case compile::compile_status::cache_hit: return "cache_hit";
    case compile::compile_status::failed: return "failed";
  }
  return "unknown";
}

json result_json(const compile::compile_result& r, const std::filesystem::path& kernel,
                 kernel::backend backend) {
  json kernels = json::array();
  for (const auto& k : r.kernels) kernels.push_back(compile::to_json(k));
  return with_schema("compile", 2,
                     json{{"kernel_file", kernel.string()},
                          {"backend", kernel::to_string(backend)},
                          {"status", status_name(r.status)},
                          {"failure_reason", r.failure_reason},
                          {"library", r.ok() ? r.library.string() : ""},
                          {"arch", r.arch.name},
                          {"nvcc", json{{"path", r.nvcc_path}, {"version", r.nvcc_version}}},
                          {"cutlass_version", r.cutlass_version},
                          {"command", r.command},
                          {"cache_key", r.cache_key},
                          {"build_seconds", r.build_seconds},
                          {"elapsed_seconds", static_cast<double>(r.elapsed.count()) / 1000.0},
                          {"kernels", kernels},
                          {"warnings", compile::compiler_warnings(r.compiler_output)},
                          {"compiler_output", r.compiler_output}});
}

// "void softmax<float, 8>(float const*, int)" -> "softmax<float, 8>": the table needs the
// template arguments to tell instantiations apart, not the return type or parameters.
std::string short_kernel_name(const std::string& demangled) {
  std::string name = demangled;
  if (name.rfind("void ", 0) == 0) name = name.substr(5);
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0) return name.substr(0, i);
  }
  return name;
}

void print_resources(const printer& print, const compile::compile_result& r) {
  if (r.kernels.empty()) {
    print.line("no __global__ kernels in the library");
    return;
  }
  print.line(fmt::format("\n{:<48} {:>5} {:>10} {:>10} {:>12} {:>12}", "kernel", "regs", "smem", "stack", "spill st",
                         "spill ld"));
  for (const auto& k : r.kernels) {
    std::string name = short_kernel_name(k.name);
    if (name.size() > 48) name = name.substr(0, 45) + "...";
    print.line(fmt::format("{:<48} {:>5} {:>10} {:>10} {:>12} {:>12}", name, k.registers,
                           format_bytes(static_cast<double>(k.static_shared_bytes)),
                           format_bytes(static_cast<double>(k.stack_frame_bytes)),
                           format_bytes(static_cast<double>(k.spill_store_bytes)),
                           format_bytes(static_cast<double>(k.spill_load_bytes))));
  }
  print.line("(registers per thread; static shared memory per block, dynamic not included; "
             "stack and spills per thread)");
  for (const auto& k : r.kernels) {
    if (k.spill_store_bytes > 0 || k.spill_load_bytes > 0) {
      print.line(fmt::format("note: {} spills registers to local memory ({} B stored per thread)", k.name,
                             static_cast<long long>(k.spill_store_bytes)));
    }
  }
}

class compile_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("kernel", m_kernel, "the .cu file exposing extern \"C\" void solve(...)")->required();
    sub.add_option("-D", m_defines, "preprocessor definition NAME=VALUE (repeatable)");
    sub.add_option("--arch", m_arch, "target, e.g. sm_90a (default: the GPU's; sm_90a without a GPU)");
    sub.add_option("--backend", m_backend, "cuda, cutlass, or auto (the default: from the source)");
    add_gpu_option(sub, m_gpu, "CUDA device ordinal whose architecture is the default");
    sub.add_option("--nvcc-bin", m_nvcc_bin, "nvcc to use (path or name on PATH)");
    sub.add_option("-o,--output", m_library_copy, "also copy the built library to this file");
    add_output_flags(sub, m_output, "print the result as JSON", true);
  }

  int run(const pipeline::services&) override {
    const std::filesystem::path kernel = std::filesystem::absolute(m_kernel);
    const compile::compile_request request = pipeline::compile_request_of(
        {kernel, kernel::parse_backend_request(m_backend), m_defines, m_arch, m_gpu, m_nvcc_bin});
    const kernel::backend backend = request.backend;
    const compile::compile_result result = compile::compile_kernel(request);
    // The library stays in the cache; -o writes a copy of it (whole or not at all).
    if (result.ok() && !m_library_copy.empty()) copy_library(result.library);

    if (m_output.json) {
      json document = result_json(result, kernel, backend);
      if (result.ok() && !m_library_copy.empty())
        document["output"] = std::filesystem::absolute(m_library_copy).string();
      std::printf("%s\n", json_text(document).c_str());
    } else if (result.ok()) {
      print_summary(result, backend);
    }
    if (!result.ok()) return report_compile_failure(m_kernel, result);
    return static_cast<int>(exit_status::ok);
  }

 private:
  // A copy beside the target renamed onto it: a reader never sees half a library.
  void copy_library(const std::filesystem::path& library) const {
    namespace fs = std::filesystem;
    const fs::path target = fs::absolute(m_library_copy);
    const fs::path partial = target.string() + ".partial";
    std::error_code ec;
    fs::copy_file(library, partial, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(partial, target, ec);
    if (ec) {
      std::error_code ignored;
      fs::remove(partial, ignored);
      throw error(fmt::format("cannot write -o {}: {} (check that its folder exists and is writable)",
                              m_library_copy, ec.message()));
    }
  }

  // With --quiet only the library's line: the result a script wants.
  void print_summary(const compile::compile_result& r, kernel::backend backend) const {
    const printer print(m_output.level);
    print.line(fmt::format("kernel:  {} ({}, {}{})", m_kernel, kernel::to_string(backend), r.arch.name,
                           r.cutlass_version.empty() ? "" : fmt::format(", CUTLASS {}", r.cutlass_version)));
    print.result(fmt::format("library: {}", r.library.string()));
    if (!m_library_copy.empty()) print.line(fmt::format("copied:  {}", m_library_copy));
    const double elapsed = static_cast<double>(r.elapsed.count()) / 1000.0;
    if (r.status == compile::compile_status::cache_hit) {
      print.line(fmt::format("cache:   hit in {:.2f} s (the original build took {:.2f} s)", elapsed, r.build_seconds));
    } else {
      print.line(fmt::format("cache:   miss; nvcc took {:.2f} s ({:.2f} s in all)", r.build_seconds, elapsed));
    }
    print_resources(print, r);
    // nvcc's warnings as a compiler shows them (a cache hit replays the build's); -v adds the
    // command and everything it printed (ptxas' resource report).
    for (const std::string& warning : compile::compiler_warnings(r.compiler_output)) print.line(warning);
    print.detail(fmt::format("\nnvcc command: {}", join(r.command, " ")));
    if (!r.compiler_output.empty()) print.detail(fmt::format("nvcc output:\n{}", std::string(trim(r.compiler_output))));
  }

  std::string m_kernel;
  std::vector<std::string> m_defines;
  std::string m_arch;
  std::string m_backend;
  std::string m_nvcc_bin;
  std::string m_library_copy;
  int m_gpu = 0;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_compile_command() { return std::make_unique<compile_command>(); }

}  // namespace kopt::cli
