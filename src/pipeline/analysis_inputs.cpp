#include "pipeline/analysis_inputs.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string_view>

#include <fmt/format.h>

#include "analyze/knowledge_base.h"
#include "tools/toolchain.h"
#include "core/error.h"
#include "core/files.h"
#include "core/text.h"
#include "profile/report_pages.h"

namespace kopt::pipeline {
namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "x_raw.csv" -> "x_<page><extension>" for the first extension that exists.
std::optional<fs::path> sibling_page(const fs::path& raw_csv, std::string_view page,
                                     std::initializer_list<const char*> extensions) {
  const std::string stem = raw_csv.stem().string();
  if (!ends_with(stem, "raw")) return std::nullopt;
  const std::string prefix = stem.substr(0, stem.size() - 3);  // "x_raw" -> "x_", "raw" -> ""
  for (const char* extension : extensions) {
    const fs::path candidate = raw_csv.parent_path() / (prefix + std::string(page) + extension);
    if (fs::is_regular_file(candidate)) return candidate;
  }
  return std::nullopt;
}

// The source page's counters, kept only when there are some (the CUDA-only view has none).
void attach_source(analysis_inputs& in, const std::string& csv, const std::string& from) {
  in.source = profile::parse_source_counters(csv);
  if (!in.source.empty()) in.source_file = from;
}

}  // namespace

std::optional<fs::path> sibling_details(const fs::path& raw_csv) {
  return sibling_page(raw_csv, "details", {".csv", ".txt"});
}

std::optional<fs::path> sibling_source(const fs::path& raw_csv) {
  return sibling_page(raw_csv, "source", {".csv"});
}

// Advice is attached by launch ID; from another report's details page it would land on the
// wrong kernel. Every launch the details name must be the raw page's launch of that ID.
void require_same_report(const analysis_inputs& in, const fs::path& report) {
  if (!in.details || in.details->format != "csv") return;  // the text page does not give IDs
  for (const profile::rule_advice& a : in.details->advice) {
    if (a.launch_id.empty() || a.kernel_name.empty()) continue;
    const auto launch = std::find_if(in.raw.launches.begin(), in.raw.launches.end(),
                                     [&](const profile::kernel_launch& l) { return l.id == a.launch_id; });
    if (launch == in.raw.launches.end() || launch->kernel_name != a.kernel_name) {
      throw error(fmt::format("the details page {} is not of the same report as {}: its launch {} is {}, there {}; "
                              "pass the details page exported from the same report (--details)",
                              in.details_file, report.string(), a.launch_id, a.kernel_name,
                              launch == in.raw.launches.end() ? "no such launch" : launch->kernel_name));
    }
  }
}

analysis_inputs load_analysis_inputs(const fs::path& report, const std::optional<fs::path>& details,
                                     const std::string& ncu_bin) {
  if (!fs::exists(report)) {
    throw error(fmt::format("{} not found: pass an Nsight Compute report (.ncu-rep) or its raw CSV export",
                            report.string()));
  }
  analysis_inputs in;
  // A whole program's report can hold thousands of launches: say how far the reading is, on a
  // terminal only.
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  const auto progress = [&](std::size_t launches) {
    if (terminal) std::fprintf(stderr, "\rkopt: read %zu launches of %s", launches, report.filename().c_str());
  };
  const auto done_reading = [&](const profile::raw_report& raw) {
    if (terminal && raw.launches.size() >= 256) {
      std::fprintf(stderr, "\rkopt: read %zu launches of %s\n", raw.launches.size(), report.filename().c_str());
    }
  };
  if (report.extension() == ".ncu-rep") {
    const tools::tool_search ncu = tools::find_ncu(ncu_bin);
    if (!ncu.tool) {
      throw error("ncu not found: install Nsight Compute or pass --ncu-bin, or analyse the report's CSV "
                  "export instead (`ncu -i R.ncu-rep --csv --page raw --print-units base > raw.csv`)",
                  "looked in: " + join(ncu.looked_in, ", "));
    }
    const profile::exported_pages pages = profile::export_report_pages(ncu.tool->path, report);
    in.raw = profile::parse_raw_csv(pages.raw_csv, report.string(), progress);
    done_reading(in.raw);
    in.details = profile::parse_details_csv(pages.details_csv);
    in.details_file = report.string();
    attach_source(in, pages.source_csv, report.string());
  } else {
    in.raw = profile::parse_raw_csv(read_text_file(report, "ncu raw CSV"), report.string(), progress);
    done_reading(in.raw);
    const std::optional<fs::path> found = details ? details : sibling_details(report);
    if (found) {
      in.details = profile::parse_details(read_text_file(*found, "ncu details page"));
      in.details_file = found->string();
    }
    if (const std::optional<fs::path> source = sibling_source(report)) {
      attach_source(in, read_text_file(*source, "ncu source page"), source->string());
    }
    require_same_report(in, report);
  }
  return in;
}

backend_choice choose_backend(const std::optional<std::string>& requested, const profile::raw_report& raw) {
  if (requested) return {analyze::knowledge_backend_named(*requested), "from --backend"};
  // ncu drops namespaces from template arguments, so CUTLASS shows by its type names.
  for (const auto& k : raw.launches) {
    for (const char* marker : {"cutlass", "cute::", "CollectiveMma", "GemmUniversal", "CollectiveEpilogue"}) {
      if (k.kernel_name.find(marker) != std::string::npos) {
        return {"cutlass", fmt::format("kernel name contains {}", marker)};
      }
    }
  }
  // Triton kernels run from Python and carry plain C names without a parameter list, unlike
  // the demangled C++ names of CUDA kernels ("kernel(float *, int)").
  for (const auto& k : raw.launches) {
    const auto process = k.attributes.find("Process Name");
    const bool python = process != k.attributes.end() && process->second.rfind("python", 0) == 0;
    if (python && k.kernel_name.find('(') == std::string::npos) {
      return {"triton", "a Python process launched a kernel with a plain C name"};
    }
  }
  return {"cuda", "default; pass --backend to choose"};
}

}  // namespace kopt::pipeline
