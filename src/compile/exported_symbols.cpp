#include "compile/exported_symbols.h"

#include <sstream>

#include <fmt/format.h>

#include "core/error.h"
#include "core/subprocess.h"

namespace kopt::compile {

bool exports_function(const std::filesystem::path& library, const std::string& name) {
  const process_result run = run_process(
      {.argv = {"nm", "-D", "--defined-only", library.string()}, .timeout = std::chrono::seconds(60)});
  if (!run.started) {
    throw error(fmt::format("cannot check what {} exports: nm did not start ({}); install binutils",
                            library.filename().string(), run.start_error));
  }
  if (!run.succeeded()) {
    throw error(fmt::format("cannot check what {} exports: nm {}: {}", library.filename().string(), run.describe_end(),
                            run.stderr_text.substr(0, 200)));
  }
  // Lines: "ADDRESS TYPE NAME"; T (or W, i) for a function in the text section.
  std::istringstream lines(run.stdout_text);
  std::string address, type, symbol;
  while (lines >> address >> type >> symbol) {
    if (symbol == name && (type == "T" || type == "W" || type == "i")) return true;
  }
  return false;
}

}  // namespace kopt::compile
