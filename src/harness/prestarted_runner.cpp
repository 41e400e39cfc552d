#include "harness/prestarted_runner.h"

#include <utility>

namespace kopt::harness {
namespace {

struct prestarted {
  std::string python;
  std::filesystem::path runner;
  std::unique_ptr<gated_process> process;
};

prestarted& slot() {
  static prestarted the_runner;
  return the_runner;
}

}  // namespace

void prestart_python_runner(const std::string& python, const std::filesystem::path& runner) {
  auto process = std::make_unique<gated_process>(process_request{.argv = {python, runner.string(), "--gated", "torch"}});
  if (!process->started()) return;  // the usual start will say why
  slot() = prestarted{python, runner, std::move(process)};
}

std::unique_ptr<gated_process> take_prestarted_runner(const std::string& python, const std::filesystem::path& runner) {
  prestarted& held = slot();
  std::unique_ptr<gated_process> process = std::move(held.process);
  if (!process || held.python != python || held.runner != runner || !process->waiting()) return nullptr;
  return process;
}

gated_process* held_prestarted_runner() {
  return slot().process.get();
}

void drop_prestarted_runner() { slot().process.reset(); }

}  // namespace kopt::harness
