// kopt text-pages NCU REPORT SUMMARY DETAILS: writes ncu's pages for people of a profile the loop
// has already answered from (profile/text_pages.h), after the iteration (not for users; hidden
// from --help). It prints nothing: whoever started it has gone on, possibly exited.
#include "cli/commands.h"
#include "profile/text_pages.h"

namespace kopt::cli {
namespace {

class text_pages_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("ncu", m_ncu, "the ncu that captured the report")->required();
    sub.add_option("report", m_files.report, "the .ncu-rep")->required();
    sub.add_option("summary", m_files.summary, "where the summary page goes")->required();
    sub.add_option("details", m_files.details, "where the details page goes")->required();
  }

  int run(const pipeline::services&) override {
    const profile::text_pages_written written = profile::write_text_pages(m_ncu, m_files);
    return written.summary && written.details ? 0 : 1;
  }

 private:
  std::string m_ncu;
  profile::text_page_files m_files;
};

}  // namespace

std::unique_ptr<command> make_text_pages_command() { return std::make_unique<text_pages_command>(); }

}  // namespace kopt::cli
