#include "cli/tune_report.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "report/tune_page.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace fs = std::filesystem;

bool is_tune_folder(const fs::path& dir) {
  return fs::is_regular_file(dir / "tune_result.json");
}

int report_tune_folder(const fs::path& dir, const fs::path& page, const output_choice& output) {
  const fs::path file = dir / "tune_result.json";
  const tune::tune_result result = tune::read_tune_result(read_json_file(file), file.string());
  report::page_options options;
  options.generated_at = utc_timestamp();
  options.kopt_version = version_string;
  write_file_atomic(page, report::tune_report_html(result, options));
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
