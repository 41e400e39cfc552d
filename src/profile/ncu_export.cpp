#include "profile/ncu_export.h"

#include <future>

#include <fmt/format.h>

#include "core/cancellation.h"
#include "core/error.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "profile/ncu_command.h"

namespace kopt::profile {
namespace {

void write_required(const process_result& run, const std::filesystem::path& report,
                    const std::filesystem::path& destination) {
  if (!run.succeeded() || trim(run.stdout_text).empty()) {
    throw error(fmt::format("ncu could not export {} to {} ({}): check that this ncu reads reports it wrote",
                            report.filename().string(), destination.filename().string(), run.describe_end()),
                std::string(trim(run.stderr_text + run.start_error)));
  }
  write_file_atomic(destination, run.stdout_text);
}

}  // namespace

export_result export_report(const std::filesystem::path& ncu, const std::filesystem::path& report,
                            const export_files& files, std::chrono::seconds timeout) {
  // ncu processes that only read the report: each spends seconds starting up and loading it, so
  // they run at once (cancelled with the calling thread's work).
  const std::atomic<bool>* cancellation = thread_cancellation();
  const auto run_of = [&](std::vector<std::string> argv) {
    return std::async(std::launch::async, [&, argv = std::move(argv)] {
      set_thread_cancellation(cancellation);
      return run_process({.argv = argv, .timeout = timeout});
    });
  };
  std::future<process_result> raw = run_of(export_argv(ncu, report, export_page::raw));
  std::future<process_result> details = run_of(export_argv(ncu, report, export_page::details));
  std::future<process_result> source_run = run_of(export_argv(ncu, report, export_page::source));
  const process_result source = source_run.get();
  write_required(raw.get(), report, files.raw_csv);
  write_required(details.get(), report, files.details_csv);
  export_result result;
  // Optional: older ncu versions cannot print the source page as CSV, and a report without
  // imported source has nothing to show.
  if (printed_a_page(source)) {
    write_file_atomic(files.source_csv, source.stdout_text);
    result.source_written = true;
  } else {
    const std::string said = std::string(trim(source.stdout_text + source.stderr_text));
    result.source_problem = fmt::format("ncu --page source: {}{}", source.succeeded() ? "no CSV output" : source.describe_end(),
                                        said.empty() ? "" : ": " + said.substr(0, said.find('\n')));
  }
  return result;
}

}  // namespace kopt::profile
