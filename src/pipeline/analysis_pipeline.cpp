#include "pipeline/analysis_pipeline.h"

#include <fmt/format.h>

#include "analyze/analysis_json.h"
#include "analyze/analysis_markdown.h"
#include "core/error.h"
#include "core/files.h"
#include "pipeline/analysis_inputs.h"

namespace kopt::pipeline {
namespace {

namespace fs = std::filesystem;

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

}  // namespace

std::string analysis_file_stem(const fs::path& report) {
  std::string stem = report.stem().string();
  if (stem.size() > 4 && stem.ends_with("_raw")) stem.resize(stem.size() - 4);
  if (stem == "ncu" || stem == "full") return "analysis";
  return stem + "_analysis";
}

analysis_outcome run_analysis(const analysis_request& request) {
  const analysis_inputs in = load_analysis_inputs(request.report, request.details, request.ncu_bin);
  analysis_outcome outcome;
  analyze::analysis& a = outcome.analysis;
  a.report = request.report.string();
  a.details_file = in.details_file;
  a.details_format = in.details ? in.details->format : "";
  a.base_units = in.raw.base_units;
  a.source_file = in.source_file;
  const backend_choice backend = choose_backend(request.backend, in.raw);
  a.backend = backend.name;
  a.backend_how = backend.how;
  a.kernels = analyze::diagnose(in.raw, in.details, a.backend, in.source);
  require_speed_of_light(a);

  outcome.out = request.out ? *request.out : fs::absolute(request.report).parent_path();
  outcome.document = analyze::to_json(a);
  const std::string stem = analysis_file_stem(request.report);
  outcome.json_file = outcome.out / (stem + ".json");
  outcome.markdown_file = outcome.out / (stem + ".md");
  write_json_file(outcome.json_file, outcome.document);
  write_file_atomic(outcome.markdown_file, analyze::to_markdown(a));
  return outcome;
}

}  // namespace kopt::pipeline
