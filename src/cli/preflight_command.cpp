#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "env/preflight.h"
#include "env/preflight_writer.h"

namespace kopt::cli {
namespace {

class preflight_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("--backend", m_backend, "backend to check for: cuda, cutlass, triton, or auto (as cuda: no file to tell)")
        ->default_val("cuda");
    add_gpu_option(sub, m_options.gpu, "CUDA device ordinal to check");
    sub.add_option("--arch", m_options.arch, "target architecture to check against the GPU (e.g. sm_90a)");
    sub.add_option("--nvcc-bin", m_options.nvcc_bin, "nvcc to use (path or name on PATH)");
    sub.add_option("--ncu-bin", m_options.ncu_bin, "ncu to use (path or name on PATH)");
    sub.add_option("--out", m_out, "folder for preflight_check.md and preflight_check.json")->default_val(".");
    add_output_flags(sub, m_output, "print the JSON report instead of the table", false);
  }

  int run(const pipeline::services&) override {
    m_options.backend = kernel::parse_backend_request(m_backend).value_or(kernel::backend::cuda);
    const env::preflight_report report = env::run_preflight(m_options);
    const std::filesystem::path out = std::filesystem::absolute(m_out);
    const json document = env::preflight_json(report);
    write_json_file(out / "preflight_check.json", document);
    write_file_atomic(out / "preflight_check.md", env::preflight_markdown(report));

    if (m_output.json) {
      std::printf("%s\n", json_text(document).c_str());
    } else {
      const printer print(m_output.level);
      print_table(print, report);
      print.line(fmt::format("wrote {} and preflight_check.json", (out / "preflight_check.md").string()));
    }
    const auto problems = report.problems();
    if (problems.empty()) return static_cast<int>(exit_status::ok);
    const env::check_item& first = *problems.front();
    std::fprintf(stderr, "kopt: not ready: %s: %s; %s%s\n", first.name.c_str(), first.value.c_str(),
                 first.fix.c_str(),
                 problems.size() > 1 ? fmt::format(" (and {} more, see preflight_check.md)", problems.size() - 1).c_str()
                                     : "");
    return static_cast<int>(exit_status::usage_or_environment);
  }

 private:
  // The marks are padded by their plain text: a painted one carries escape codes.
  static void print_table(const printer& print, const env::preflight_report& report) {
    for (const auto& item : report.items) {
      const std::string mark = item.state == env::check_state::ok        ? "ok"
                               : item.state == env::check_state::skipped ? "--"
                               : item.required                           ? "FAIL"
                                                                         : "warn";
      print.line(fmt::format("{}{} {:<18} {}", print.status(mark), std::string(4 - mark.size(), ' '), item.name,
                             item.value));
      if (item.state != env::check_state::ok && !item.fix.empty()) {
        print.line(fmt::format("     {:<18} fix: {}", "", item.fix));
      }
    }
    print.result(print.status(report.ready() ? "ready" : "not ready"));
  }

  env::preflight_options m_options;
  std::string m_backend;
  std::string m_out;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_preflight_command() { return std::make_unique<preflight_command>(); }

}  // namespace kopt::cli
