// kopt analyze REPORT.ncu-rep|raw.csv: bottleneck diagnosis of every profiled kernel launch,
// written to analysis.md and analysis.json (schema kopt.analysis/v2).

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "analyze/analysis_json.h"
#include "analyze/analysis_markdown.h"
#include "analyze/analyzer.h"
#include "analyze/knowledge_base.h"
#include "cli/analyze_inputs.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

std::string summary_line(const analyze::kernel_diagnosis& d) {
  const auto pct = [](const std::optional<double>& v) { return v ? fmt::format("{:.1f} %", *v) : std::string("n/a"); };
  return fmt::format("[{}] {}: {}{} (SM {}, memory {})", d.launch_id, d.kernel_name, analyze::to_string(d.verdict.cls),
                     d.verdict.at_hardware_limit ? ", at hardware limit" : "", pct(d.sol.sm_pct), pct(d.sol.memory_pct));
}

// No confident class without the data: a page or file that lacks the speed-of-light metrics in
// every launch (the details page passed as the raw one, a CSV of "n/a") is refused whole.
void require_speed_of_light(const analyze::analysis& a) {
  for (const auto& k : a.kernels) {
    if (k.sol.sm_pct && k.sol.memory_pct) return;
  }
  throw error(fmt::format("{} has no launch with the speed-of-light metrics kopt classifies by "
                          "(sm__throughput.avg.pct_of_peak_sustained_elapsed and "
                          "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed): pass the raw page "
                          "of a report captured with kopt profile or ncu --set full (ncu -i REPORT.ncu-rep --csv "
                          "--page raw --print-units base), not the details page",
                          a.report));
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
    sub.add_option("--out", m_out, "folder for analysis.md and analysis.json (default: beside the report)");
    sub.add_option("--ncu-bin", m_ncu_bin, "ncu to export a .ncu-rep with (default: searched)");
    sub.add_flag("--json", m_json, "print analysis.json instead of one line per kernel");
  }

  int run() override {
    const analysis_inputs in = load_analysis_inputs(m_report, m_details, m_ncu_bin);
    analyze::analysis a;
    a.report = m_report.string();
    a.details_file = in.details_file;
    a.details_format = in.details ? in.details->format : "";
    a.base_units = in.raw.base_units;
    a.source_file = in.source_file;
    const backend_choice backend = choose_backend(m_backend, in.raw);
    a.backend = backend.name;
    a.backend_how = backend.how;
    a.kernels = analyze::diagnose(in.raw, in.details, a.backend, in.source);
    require_speed_of_light(a);

    const fs::path out = m_out ? *m_out : fs::absolute(m_report).parent_path();
    const json document = analyze::to_json(a);
    write_json_file(out / "analysis.json", document);
    write_file_atomic(out / "analysis.md", analyze::to_markdown(a));
    if (m_json) {
      std::fputs((json_text(document) + "\n").c_str(), stdout);
    } else {
      for (const auto& k : a.kernels) {
        std::fputs((summary_line(k) + "\n").c_str(), stdout);
        if (!k.recommendations.empty()) {
          const auto& first = k.recommendations.front();
          std::fputs(fmt::format("    first to try: {} (kopt kb show {})\n", first.title, first.id).c_str(), stdout);
        }
      }
      std::fputs(fmt::format("wrote analysis.md and analysis.json in {}\n", out.string()).c_str(), stdout);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  fs::path m_report;
  std::optional<fs::path> m_details;
  std::optional<std::string> m_backend;
  std::optional<fs::path> m_out;
  std::string m_ncu_bin;
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_analyze_command() { return std::make_unique<analyze_command>(); }

}  // namespace kopt::cli
