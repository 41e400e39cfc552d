#pragma once
// A stand-in ncu for the export tests: a shell script that answers `-i REPORT --csv --page PAGE`
// the way ncu does, and the text pages (`--print-summary per-kernel`, `--page details` without
// --csv), or fails or waits where a test wants it to.

#include <filesystem>
#include <string>

#include "support/kopt_process.h"

namespace kopt::profile {

// `source_behaviour` is shell code run for --page source, `summary_behaviour` for the summary.
inline std::filesystem::path fake_ncu(const testing::scratch_dir& dir, const std::string& details_behaviour, const std::string& source_behaviour,
                  const std::string& summary_behaviour = "echo 'k(int) summary'") {
  const std::filesystem::path script = dir.write("ncu", "#!/bin/sh\n"
                                           "page=''; csv=''\n"
                                           "while [ $# -gt 0 ]; do\n"
                                           "  [ \"$1\" = --page ] && page=$2\n"
                                           "  [ \"$1\" = --csv ] && csv=1\n"
                                           "  [ \"$1\" = --print-summary ] && page=summary\n"
                                           "  shift\n"
                                           "done\n"
                                           "[ -z \"$csv\" ] && [ \"$page\" = details ] && page=details_text\n"
                                           "case $page in\n"
                                           "  summary) " + summary_behaviour + " ;;\n"
                                           "  details_text) echo 'Section: GPU Speed Of Light Throughput' ;;\n"
                                           "  raw) echo '\"ID\",\"Kernel Name\"'; echo '\"\",\"\"'; echo '\"0\",\"k(int)\"' ;;\n"
                                           "  details) " + details_behaviour + " ;;\n"
                                           "  source) " + source_behaviour + " ;;\n"
                                           "esac\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script;
}

}  // namespace kopt::profile
