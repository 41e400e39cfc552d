#include "cli/warm_client.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/command_line.h"
#include "core/error.h"
#include "core/escaped_error.h"
#include "core/version.h"
#include "worker/worker_client.h"

namespace kopt::cli {

std::vector<std::string> worker_serve_argv(const std::string& idle_seconds) {
  std::vector<std::string> argv{std::filesystem::read_symlink("/proc/self/exe").string(), "worker", "serve"};
  if (!idle_seconds.empty()) argv.insert(argv.end(), {"--idle-seconds", idle_seconds});
  return argv;
}

bool runs_in_warm_worker(const std::vector<std::string>& words) {
  if (words.empty()) return false;
  const std::string& command = words.front();
  if (command == "loop") {
    return std::none_of(words.begin(), words.end(),
                        [](const std::string& w) { return w == "--agent" || w.rfind("--agent=", 0) == 0; });
  }
  return command == "bench" || command == "compare" || command == "profile";
}

std::optional<int> run_in_warm_worker_if_asked(std::vector<std::string>& words) {
  bool asked = false;
  if (!words.empty() && words.front() == "--warm") {
    words.erase(words.begin());
    asked = true;
  }
  if (const char* warm = std::getenv("KOPT_WARM"); warm != nullptr && *warm != '\0' && std::string(warm) != "0") {
    asked = true;
  }
  if (!asked || !runs_in_warm_worker(words)) return std::nullopt;
  try {
    const worker::identity id = worker::current_identity(version_string);
    const char* idle = std::getenv("KOPT_WARM_IDLE_SECONDS");
    const std::vector<std::string> start = worker_serve_argv(idle == nullptr ? "" : idle);
    std::vector<std::string> notes;
    const std::optional<int> status = worker::run_in_worker(id, words, start, notes);
    for (const std::string& note : notes) std::fprintf(stderr, "%s\n", note.c_str());
    return status;
  } catch (...) {
    const error e = current_exception_as_error();
    return report_error(e.headline(), e.detail(), asks_for_json_output(words));
  }
}

}  // namespace kopt::cli
