#include "cli/tune_report.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/json_io.h"
#include "report/tune_page.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace fs = std::filesystem;

int report_tune_folder(const fs::path& dir, const fs::path& page, const output_choice& output) {
  const tune::tune_result result = report::write_tune_report(dir, page, report::stamped_page_options());
  bool every_shape_won = result.winner.has_value();
  for (const tune::shape_result& s : result.shapes) every_shape_won = every_shape_won && s.winner.has_value();
  const exit_status status = every_shape_won ? exit_status::ok : exit_status::kernel_failed;
  if (output.json) {
    std::printf("%s\n", json_text(tune::to_json(result)).c_str());
    return static_cast<int>(status);
  }
  const printer out(output.level);
  out.line(tune::tune_text(result));
  out.result(fmt::format("wrote {}", page.string()));
  return static_cast<int>(status);
}

}  // namespace kopt::cli
