#pragma once
// Errors of usage or environment: thrown once, mapped to exit code 2 in main.
// Failures of the kernel under test are not errors: they are results (status + reason).

#include <stdexcept>
#include <string>

namespace kopt {

enum class exit_status : int {
  ok = 0,
  kernel_failed = 1,  // does not compile, fails validation, crashes, hangs, fails under ncu
  usage_or_environment = 2,
};

class error : public std::runtime_error {
 public:
  // `headline` is one line naming the problem and what to do; `detail` is supporting
  // text (compiler output, a traceback, a list of choices) printed after it.
  explicit error(std::string headline, std::string detail = {});

  const std::string& headline() const { return m_headline; }
  const std::string& detail() const { return m_detail; }

 private:
  std::string m_headline;
  std::string m_detail;
};

}  // namespace kopt
