#include "profile/report_pages.h"

#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/subprocess.h"

namespace kopt::profile {
namespace {

// Reading a report with thousands of metrics takes seconds; a hung ncu must not hang kopt.
constexpr std::chrono::minutes export_timeout{5};

std::string export_page(const std::filesystem::path& ncu, const std::filesystem::path& report,
                        const std::vector<std::string>& page_args) {
  process_request request;
  request.argv = {ncu.string(), "-i", report.string(), "--csv"};
  request.argv.insert(request.argv.end(), page_args.begin(), page_args.end());
  request.timeout = export_timeout;
  const process_result result = run_process(request);
  if (!result.succeeded()) {
    throw error(fmt::format("ncu could not export {} ({}): check that the file is a complete "
                            "Nsight Compute report and that this ncu is as new as the one that "
                            "wrote it",
                            report.string(), result.started ? result.describe_end() : result.start_error),
                result.stderr_text + result.stdout_text);
  }
  return result.stdout_text;
}

}  // namespace

exported_pages export_report_pages(const std::filesystem::path& ncu,
                                   const std::filesystem::path& report) {
  exported_pages pages;
  pages.raw_csv = export_page(ncu, report, {"--page", "raw", "--print-units", "base"});
  pages.details_csv = export_page(ncu, report, {"--page", "details", "--print-details", "all"});
  return pages;
}

}  // namespace kopt::profile
