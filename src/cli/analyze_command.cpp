// kopt analyze REPORT.ncu-rep|raw.csv: bottleneck diagnosis of every profiled kernel launch,
// written to a markdown and a JSON file named after the report (schema kopt.analysis/v3).

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "analyze/analyzer.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"
#include "pipeline/analysis_pipeline.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

std::string summary_line(const analyze::kernel_diagnosis& d) {
  const auto pct = [](const std::optional<double>& v) { return v ? fmt::format("{:.1f} %", *v) : std::string("n/a"); };
  return fmt::format("[{}] {}: {}{} (SM {}, memory {})", d.launch_id, d.kernel_name, analyze::to_string(d.verdict.cls),
                     d.verdict.at_hardware_limit ? ", at hardware limit" : "", pct(d.sol.sm_pct), pct(d.sol.memory_pct));
}

class analyze_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("report", m_report, "an Nsight Compute report (.ncu-rep) or its raw CSV export")->required();
    sub.add_option("--details", m_details,
                   "ncu's details page (CSV, or the printed text) for its rule advice; default: the "
                   "file beside a raw CSV with the same prefix (x_raw.csv -> x_details.csv)");
    sub.add_option("--backend", m_backend, "knowledge base for the recommendations: cuda, cutlass or triton "
                                           "(default: guessed from the kernel names)");
    sub.add_option("--out", m_out,
                   "folder for the two files, named after the report (analysis.md and analysis.json for kopt "
                   "profile's ncu_raw.csv; NAME_analysis.* for NAME_raw.csv or NAME.ncu-rep), default: beside the report");
    sub.add_option("--ncu-bin", m_ncu_bin, "ncu to export a .ncu-rep with (default: searched)");
    add_output_flags(sub, m_output, "print the JSON document instead of one line per kernel", true);
  }

  int run(const pipeline::services&) override {
    pipeline::analysis_request request{m_report, m_details, m_backend, m_out, m_ncu_bin};
    const pipeline::analysis_outcome outcome = pipeline::run_analysis(request);
    const analyze::analysis& a = outcome.analysis;
    const json& document = outcome.document;
    const fs::path& out = outcome.out;
    if (m_output.json) {
      std::fputs((json_text(document) + "\n").c_str(), stdout);
    } else {
      const printer print(m_output.level);
      for (const auto& k : a.kernels) {
        print.line(summary_line(k));
        // -v: why the class, and every recommendation in rank order, not only the first.
        print.detail(fmt::format("    why: {}", k.verdict.reason));
        for (std::size_t i = 0; i < k.recommendations.size(); ++i) {
          const auto& r = k.recommendations[i];
          if (i == 0) {
            print.line(fmt::format("    first to try: {} (kopt kb show {})", r.title, r.id));
          } else {
            print.detail(fmt::format("    then: {} (kopt kb show {})", r.title, r.id));
          }
        }
      }
      print.result(fmt::format("wrote {} and {} in {}", outcome.markdown_file.filename().string(),
                               outcome.json_file.filename().string(), out.string()));
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  fs::path m_report;
  std::optional<fs::path> m_details;
  std::optional<std::string> m_backend;
  std::optional<fs::path> m_out;
  std::string m_ncu_bin;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_analyze_command() { return std::make_unique<analyze_command>(); }

}  // namespace kopt::cli
