#include "harness/child_report.h"

#include <utility>

#include "core/version.h"

namespace kopt::harness {

child_report report_of(run_status status, std::string reason) {
  child_report report;
  report.kopt_version = version_string;
  report.status = status;
  report.reason = std::move(reason);
  return report;
}

}  // namespace kopt::harness
