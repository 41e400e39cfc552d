// kopt worker serve|start|stop|status: this kopt's warm worker (docs/worker.md). A client
// (kopt --warm bench ..., or KOPT_WARM=1) starts it when there is none; these manage it by hand.

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/warm_client.h"
#include "core/after_the_answer.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/version.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/warm_processes.h"
#include "worker/worker_client.h"
#include "worker/worker_server.h"

namespace kopt::cli {
namespace {

class worker_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_serve = sub.add_subcommand("serve", "serve in the foreground (what a client starts)");
    m_start = sub.add_subcommand("start", "start this kopt's worker unless one is running");
    for (CLI::App* s : {m_serve, m_start}) {
      s->add_option("--idle-seconds", m_idle_s, "end after this long without a command")
          ->default_val(600)
          ->check(seconds_limit<double>());
    }
    m_stop = sub.add_subcommand("stop", "stop this kopt's worker (after the command it is running)");
    m_status = sub.add_subcommand("status", "whether this kopt's worker runs: its process, since when, commands served");
    for (CLI::App* s : {m_start, m_status}) s->add_flag("--json", m_json, "print JSON");
  }

  int run(const pipeline::services& services) override {
    const worker::identity id = worker::current_identity(version_string);
    if (m_serve->parsed()) {
      pipeline::keep_processes_warm();
      defer_until_answered();  // what can wait for the client's answer runs after it
      worker::server_settings settings{id, worker::socket_path(id), std::chrono::seconds(static_cast<long>(m_idle_s)),
                                       [] { return pipeline::warm_processes::instance().describe(); }};
      worker::serve(settings, [&services](const std::vector<std::string>& words) {
        return run_command_line(words, running_version_text(), services);
      });
      return static_cast<int>(exit_status::ok);
    }
    if (m_start->parsed()) {
      std::vector<std::string> notes;
      const std::optional<json> status =
          worker::start_worker(id, worker_serve_argv(fmt::format("{}", m_idle_s)), notes);
      if (!status) throw error(notes.empty() ? "the warm worker could not be started" : notes.front());
      print_status(*status);
      return static_cast<int>(exit_status::ok);
    }
    if (m_stop->parsed()) {
      const std::optional<json> answer = worker::ask_worker(id, "stop");
      std::printf("%s\n", answer ? "kopt worker: stopping" : "kopt worker: none is running");
      return static_cast<int>(exit_status::ok);
    }
    const std::optional<json> status = worker::ask_worker(id, "status");
    if (!status) {
      if (m_json) std::printf("%s\n", json_text(with_schema("worker_status", 1, json{{"running", false}})).c_str());
      else std::printf("kopt worker: none is running for this kopt and environment\n");
      return static_cast<int>(exit_status::ok);
    }
    print_status(*status);
    return static_cast<int>(exit_status::ok);
  }

 private:
  void print_status(json status) const {
    if (status.contains("refused")) throw error("the worker refused: " + status["refused"].get<std::string>());
    if (m_json) {
      status["running"] = true;
      std::printf("%s\n", json_text(with_schema("worker_status", 1, status)).c_str());
      return;
    }
    std::printf("kopt worker: running as process %d since %s, %d command(s) served, ends after %d s idle\n"
                "socket: %s\n",
                status.value("pid", 0), status.value("started_at", "").c_str(), status.value("commands_served", 0),
                status.value("idle_limit_s", 0), status.value("socket", "").c_str());
    const json kept = status.value("kept_warm", json::array());
    if (kept.empty()) std::printf("kept warm: nothing yet (a command with a .py reference or a Triton kernel starts it)\n");
    for (const json& process : kept) {
      std::printf("kept warm: %s, process %d, GPU %s, %s\n", process.value("kind", "").c_str(), process.value("pid", 0),
                  process.value("gpu", "").c_str(), process.value("waiting", false) ? "waiting" : "ended");
    }
  }

  CLI::App* m_serve = nullptr;
  CLI::App* m_start = nullptr;
  CLI::App* m_stop = nullptr;
  CLI::App* m_status = nullptr;
  double m_idle_s = 600;
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_worker_command() { return std::make_unique<worker_command>(); }

}  // namespace kopt::cli
