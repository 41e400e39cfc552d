#pragma once
// ncu's pages for people: the summary and the details as ncu prints them (full_summary.txt,
// full_details.txt, the Python toolkit's readable pages). Nothing kopt decides reads them, so
// the loop has them written after it has answered, by a kopt process of their own
// (`kopt text-pages`, started with text_pages_argv), while the agent works on.
//
// A page is written, atomically, only when ncu printed it and the report it came from is still
// the file it was read from: a newer profile published into the same folder meanwhile wins.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace kopt::profile {

struct text_page_files {
  std::filesystem::path report;   // the .ncu-rep the pages are printed from
  std::filesystem::path summary;  // empty: not asked for
  std::filesystem::path details;  // empty: not asked for
};

struct text_pages_written {
  bool summary = false;
  bool details = false;
};

// Runs ncu once per page asked for, at once, and writes what it printed.
text_pages_written write_text_pages(const std::filesystem::path& ncu, const text_page_files& files,
                                    std::chrono::seconds timeout = std::chrono::seconds(300));

// `kopt text-pages NCU REPORT SUMMARY DETAILS` as `kopt` (its executable) runs it.
std::vector<std::string> text_pages_argv(const std::filesystem::path& kopt, const std::filesystem::path& ncu,
                                         const text_page_files& files);

}  // namespace kopt::profile
