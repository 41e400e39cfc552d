// kopt: run one command line, in this process or, when asked (--warm, KOPT_WARM=1), in this
// kopt's warm worker (cli/warm_client.h).

#include <string>
#include <vector>

#include <fmt/format.h>

#include "build_stamp.h"
#include "cli/command_line.h"
#include "cli/warm_client.h"
#include "core/private_memory.h"
#include "core/version.h"

int main(int argc, char** argv) {
  const std::string version_text =
      fmt::format("kopt {} (commit {}, built {})", kopt::version_string, kopt::build_commit, kopt::build_date);
  std::vector<std::string> words(argv + 1, argv + argc);
  // The judge's memory is no business of the code it judges. A measuring process (`kopt
  // harness`) stays dumpable: ncu and compute-sanitizer work on it, and it names its threads.
  if (words.empty() || words.front() != "harness") kopt::keep_memory_private();
  if (const std::optional<int> status = kopt::cli::run_in_warm_worker_if_asked(words)) return *status;
  return kopt::cli::run_command_line(words, version_text);
}
