#pragma once
// A file of kopt's beside the kernel file for as long as a measurement needs it. A version whose
// text lies in the run folder (a candidate's snapshot, a tuned module's, the versions a
// comparison in turns holds open) is measured from such a copy, so that its local headers and
// the modules it imports resolve as they do for the kernel file. The file is removed however
// the measurement ends; one a killed call left is replaced by the next write of that name.

#include <filesystem>
#include <string>
#include <string_view>

namespace kopt::loop {

// `.<stem>.kopt-<role><ext>` beside `kernel` ("cand2", "tuned", "turns1").
std::filesystem::path work_file_beside(const std::filesystem::path& kernel, std::string_view role);

class work_file {
 public:
  work_file(std::filesystem::path path, const std::string& text);
  ~work_file();
  work_file(const work_file&) = delete;
  work_file& operator=(const work_file&) = delete;

  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace kopt::loop
