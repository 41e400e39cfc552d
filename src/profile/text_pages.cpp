#include "profile/text_pages.h"

#include <sys/stat.h>

#include <future>
#include <optional>

#include "core/cancellation.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "profile/ncu_command.h"

namespace kopt::profile {
namespace {

// Which file a path names now: a report published over it is another file.
struct file_identity {
  dev_t device = 0;
  ino_t inode = 0;
  timespec modified{};
  off_t size = 0;

  bool operator==(const file_identity& other) const {
    return device == other.device && inode == other.inode && modified.tv_sec == other.modified.tv_sec &&
           modified.tv_nsec == other.modified.tv_nsec && size == other.size;
  }
};

std::optional<file_identity> identity_of(const std::filesystem::path& file) {
  struct stat facts {};
  if (::stat(file.c_str(), &facts) != 0) return std::nullopt;
  return file_identity{facts.st_dev, facts.st_ino, facts.st_mtim, facts.st_size};
}

}  // namespace

text_pages_written write_text_pages(const std::filesystem::path& ncu, const text_page_files& files,
                                    std::chrono::seconds timeout) {
  const std::optional<file_identity> read_from = identity_of(files.report);
  if (!read_from) return {};
  // Cancelled with the calling thread's work, as the CSV exports are.
  const std::atomic<bool>* cancellation = thread_cancellation();
  const auto print = [&](const std::filesystem::path& destination, text_page page) {
    return std::async(std::launch::async, [&, destination, page] {
      if (destination.empty()) return process_result{};
      set_thread_cancellation(cancellation);
      return run_process({.argv = text_page_argv(ncu, files.report, page), .timeout = timeout});
    });
  };
  std::future<process_result> summary = print(files.summary, text_page::summary);
  std::future<process_result> details = print(files.details, text_page::details);
  const auto keep = [&](const process_result& run, const std::filesystem::path& destination) {
    if (destination.empty() || !printed_a_page(run) || identity_of(files.report) != read_from) return false;
    write_file_atomic(destination, run.stdout_text);
    return true;
  };
  text_pages_written written;
  written.summary = keep(summary.get(), files.summary);
  written.details = keep(details.get(), files.details);
  return written;
}

std::vector<std::string> text_pages_argv(const std::filesystem::path& kopt, const std::filesystem::path& ncu,
                                         const text_page_files& files) {
  return {kopt.string(), "text-pages", ncu.string(), files.report.string(), files.summary.string(),
          files.details.string()};
}

}  // namespace kopt::profile
