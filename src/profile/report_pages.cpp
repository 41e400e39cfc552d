#include "profile/report_pages.h"

#include <chrono>

#include <fmt/format.h>

#include "core/error.h"
#include "core/subprocess.h"
#include "profile/ncu_command.h"

namespace kopt::profile {
namespace {

// Reading a report with thousands of metrics takes seconds; a hung ncu must not hang kopt.
constexpr std::chrono::minutes export_timeout{5};

// The same export command lines kopt profile uses (ncu_command.h), read into memory.
process_result run_export(const std::filesystem::path& ncu, const std::filesystem::path& report,
                          export_page page) {
  process_request request;
  request.argv = export_argv(ncu, report, page);
  request.timeout = export_timeout;
  return run_process(request);
}

std::string export_required(const std::filesystem::path& ncu, const std::filesystem::path& report,
                            export_page page) {
  const process_result result = run_export(ncu, report, page);
  if (!result.succeeded()) {
    throw error(fmt::format("ncu could not export {} ({}): check that the file is a complete "
                            "Nsight Compute report and that this ncu is as new as the one that "
                            "wrote it",
                            report.string(), result.started ? result.describe_end() : result.start_error),
                result.stderr_text + result.stdout_text);
  }
  return result.stdout_text;
}

// Older ncu versions cannot print the source page as CSV, and a report captured without
// imported source has none: then there is nothing to rank, which is no error.
std::string export_optional(const std::filesystem::path& ncu, const std::filesystem::path& report,
                            export_page page) {
  const process_result result = run_export(ncu, report, page);
  if (!result.succeeded() || result.stdout_text.find("==ERROR==") != std::string::npos) return {};
  return result.stdout_text;
}

}  // namespace

exported_pages export_report_pages(const std::filesystem::path& ncu,
                                   const std::filesystem::path& report) {
  exported_pages pages;
  pages.raw_csv = export_required(ncu, report, export_page::raw);
  pages.details_csv = export_required(ncu, report, export_page::details);
  pages.source_csv = export_optional(ncu, report, export_page::source);
  return pages;
}

}  // namespace kopt::profile
