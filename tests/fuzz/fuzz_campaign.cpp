// The long fuzz campaign (scripts/fuzz_campaign.sh): mutants of every reader in fuzz_targets.h
// through the kopt binary, as a user runs it with --json, and MCP sessions of mutated requests
// through `kopt mcp`; the readers no command reaches without a GPU are read in this process. It
// counts, per target, what kopt read, what it refused, and the findings: a signal, a hang, an
// exit status other than 0 or 2, stdout that is not one JSON document, a refusal that is not a
// `kopt: error:` line, a sanitizer's report, an MCP request left unanswered. Findings are kept
// under the work folder. Exit status 0 when there are none.
//
//   fuzz_campaign --kopt build/debug-asan/bin/kopt --work DIR [--mutants 5000]
//                 [--mcp-requests 2000] [--jobs 2] [--seed 20261204]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/document_error.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_limits.h"
#include "core/subprocess.h"
#include "fuzz_targets.h"

namespace kopt::fuzz {
namespace {
namespace fs = std::filesystem;

struct settings {
  fs::path kopt;
  fs::path work;
  int mutants = 5000;
  int mcp_requests = 2000;
  int jobs = 2;
  std::uint64_t seed = 20261204;
};

struct tally {
  std::atomic<int> ran{0}, read{0}, refused{0}, signals{0}, hangs{0}, bad_exit{0}, bad_json{0}, bad_error{0},
      sanitizer{0}, escaped{0}, unanswered{0};

  int findings() const {
    return signals + hangs + bad_exit + bad_json + bad_error + sanitizer + escaped + unanswered;
  }
};

std::mutex print_mutex;

void keep(const settings& s, const std::string& target, int index, const mutant& m, const std::string& why) {
  const fs::path folder = s.work / "findings" / target;
  fs::create_directories(folder);
  write_file_atomic(folder / fmt::format("{}.txt", index), m.text);
  write_file_atomic(folder / fmt::format("{}.why", index), m.mutations + "\n" + why + "\n");
  const std::lock_guard<std::mutex> lock(print_mutex);
  std::fprintf(stderr, "finding: %s mutant %d (%s): %s\n", target.c_str(), index, m.mutations.c_str(),
               why.substr(0, 300).c_str());
}

bool sanitizer_spoke(const std::string& stderr_text) {
  return stderr_text.find("AddressSanitizer") != std::string::npos ||
         stderr_text.find("runtime error:") != std::string::npos ||
         stderr_text.find("LeakSanitizer") != std::string::npos;
}

process_result run_kopt(const settings& s, const std::vector<std::string>& args, int stdin_fd = -1,
                        std::chrono::seconds limit = std::chrono::seconds(120)) {
  process_request request;
  request.argv = {s.kopt.string()};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.extra_env = {{"KOPT_CACHE_DIR", (s.work / "cache").string()},
                       {"KOPT_MEMORY_DB", (s.work / "mcp_memory.db").string()},
                       {"CUDA_VISIBLE_DEVICES", ""}};
  if (stdin_fd >= 0) request.pass_fds = {{stdin_fd, 0}};
  request.timeout = limit;
  return run_process(request);
}

// One whole-program run of a mutant: what is wrong with how kopt ended, "" when nothing.
std::string judge(const process_result& r, tally& t) {
  if (r.timed_out) return ++t.hangs, "hung: " + r.describe_end();
  if (r.term_signal != 0) return ++t.signals, r.describe_end() + "\n" + r.stderr_text.substr(0, 4000);
  if (sanitizer_spoke(r.stderr_text)) return ++t.sanitizer, r.stderr_text.substr(0, 4000);
  if (r.exit_code != 0 && r.exit_code != 2) return ++t.bad_exit, r.describe_end() + "\n" + r.stderr_text.substr(0, 2000);
  const json out = json::parse(r.stdout_text, nullptr, false);
  if (out.is_discarded() || !out.is_object()) return ++t.bad_json, "stdout is not one JSON document: " + r.stdout_text.substr(0, 500);
  if (r.exit_code == 2) {
    const std::string first = r.stderr_text.substr(0, r.stderr_text.find('\n'));
    if (first.rfind("kopt: error: ", 0) != 0 || out.value("schema", "") != "kopt.error/v1") {
      return ++t.bad_error, "a refusal that is not kopt's one-line error: " + r.stderr_text.substr(0, 500);
    }
    ++t.refused;
  } else {
    ++t.read;
  }
  return "";
}

// `count` indices shared by `jobs` threads; `work(index, job)` for each.
void in_parallel(int count, int jobs, const std::function<void(int, int)>& work) {
  std::atomic<int> next{0};
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) {
    threads.emplace_back([&, j] {
      for (int i = next++; i < count; i = next++) work(i, j);
    });
  }
  for (auto& t : threads) t.join();
}

void run_target(const settings& s, fuzz_target& target, tally& t) {
  std::mt19937_64 random(s.seed);
  std::mutex make_mutex;
  const auto next_mutant = [&] {
    const std::lock_guard<std::mutex> lock(make_mutex);
    return target.make(random);
  };
  if (!target.command) {
    // No command reads it without a GPU: read here, under this program's sanitizers.
    for (int i = 0; i < s.mutants; ++i) {
      const mutant m = next_mutant();
      ++t.ran;
      try {
        target.read(m);
        ++t.read;
      } catch (const error&) {
        ++t.refused;
      } catch (const std::exception& e) {
        ++t.escaped;
        keep(s, target.name, i, m, std::string("escaped: ") + e.what());
      }
    }
    return;
  }
  in_parallel(s.mutants, s.jobs, [&](int i, int job) {
    const mutant m = next_mutant();
    const fs::path folder = s.work / "runs" / target.name / fmt::format("job_{}", job);
    fs::create_directories(folder);
    const process_result r = run_kopt(s, target.command(m, folder));
    ++t.ran;
    if (const std::string why = judge(r, t); !why.empty()) keep(s, target.name, i, m, why);
  });
}

// The ids a session's requests must each be answered under once: every line that is a JSON
// object within the reader's limits with a string or integer id, but those a cancellation in
// the same session names (a cancelled call gets no answer).
std::map<std::string, int> expected_answers(const std::vector<std::string>& lines) {
  std::map<std::string, int> expected;
  std::set<std::string> cancelled;
  for (const std::string& line : lines) {
    json message;
    try {
      message = parse_json_checked(line, json_limits{64, std::size_t{64} << 20});
    } catch (const document_error&) {
      continue;
    }
    if (!message.is_object()) continue;
    if (message.contains("params") && message["params"].is_object() && message["params"].contains("requestId")) {
      cancelled.insert(json_text(message["params"]["requestId"], -1));
    }
    if (!message.contains("id")) continue;
    const json& id = message["id"];
    if (id.is_string() || id.is_number_integer()) ++expected[json_text(id, -1)];
  }
  for (const auto& id : cancelled) expected.erase(id);
  return expected;
}

void run_mcp(const settings& s, tally& t) {
  std::mt19937_64 random(s.seed);
  const fs::path workspace = mcp_workspace(s.work);
  constexpr int per_session = 250;
  const int sessions = (s.mcp_requests + per_session - 1) / per_session;
  for (int session = 0; session < sessions; ++session) {
    const std::vector<std::string> lines = mcp_session_lines(random, per_session);
    std::string input;
    for (const auto& line : lines) input += line + "\n";
    const fs::path file = s.work / "mcp" / fmt::format("session_{}.jsonl", session);
    write_file_atomic(file, input);
    const int fd = ::open(file.c_str(), O_RDONLY);
    const process_result r = run_kopt(s, {"mcp", "--workspace", workspace.string()}, fd, std::chrono::seconds(900));
    ::close(fd);
    t.ran += static_cast<int>(lines.size());
    const mutant whole{input, fmt::format("session {}", session)};
    if (r.timed_out) {
      ++t.hangs;
      keep(s, "mcp", session, whole, "hung");
      continue;
    }
    if (r.term_signal != 0 || r.exit_code != 0 || sanitizer_spoke(r.stderr_text)) {
      ++t.signals;
      keep(s, "mcp", session, whole, r.describe_end() + "\n" + r.stderr_text.substr(0, 4000));
      continue;
    }
    std::map<std::string, int> answered;
    std::size_t start = 0;
    for (std::size_t end = r.stdout_text.find('\n'); end != std::string::npos; end = r.stdout_text.find('\n', start)) {
      const json message = json::parse(r.stdout_text.substr(start, end - start), nullptr, false);
      start = end + 1;
      if (message.is_discarded() || !message.is_object() || message.value("jsonrpc", "") != "2.0") {
        ++t.bad_json;
        keep(s, "mcp", session, whole, "an output line that is not a JSON-RPC message");
        continue;
      }
      if (message.contains("error")) ++t.refused;
      if (message.contains("result")) ++t.read;
      if (message.contains("id") && !message["id"].is_null()) ++answered[json_text(message["id"], -1)];
    }
    for (const auto& [id, count] : expected_answers(lines)) {
      if (answered[id] != count) {
        ++t.unanswered;
        keep(s, "mcp", session, whole, fmt::format("id {}: {} requests, {} answers", id, count, answered[id]));
      }
    }
  }
}

void print_row(const std::string& name, const char* how, const tally& t) {
  std::printf("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", name.c_str(), how, t.ran.load(), t.read.load(),
              t.refused.load(), t.signals.load(), t.hangs.load(),
              t.bad_json.load() + t.bad_error.load() + t.bad_exit.load(), t.sanitizer.load() + t.escaped.load(),
              t.unanswered.load());
  std::fflush(stdout);
}

int campaign(const settings& s) {
  fs::create_directories(s.work);
  std::vector<fuzz_target> targets = fuzz_targets(s.work / "inputs");
  std::printf("| reader | how | mutants | read | refused | signal | hang | not JSON / not one line | sanitizer or escaped "
              "| unanswered |\n|---|---|---|---|---|---|---|---|---|---|\n");
  int findings = 0;
  for (fuzz_target& target : targets) {
    tally t;
    const auto started = std::chrono::steady_clock::now();
    run_target(s, target, t);
    print_row(target.name, target.command ? "kopt --json" : "in process", t);
    findings += t.findings();
    const std::lock_guard<std::mutex> lock(print_mutex);
    std::fprintf(stderr, "%s: %.0f s\n", target.name.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  tally mcp;
  run_mcp(s, mcp);
  print_row("mcp_requests", "kopt mcp", mcp);
  findings += mcp.findings();
  std::printf("\n%d findings\n", findings);
  return findings == 0 ? 0 : 1;
}

}  // namespace
}  // namespace kopt::fuzz

int main(int argc, char** argv) {
  kopt::fuzz::settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--kopt") s.kopt = value;
    else if (flag == "--work") s.work = value;
    else if (flag == "--mutants") s.mutants = std::atoi(value.c_str());
    else if (flag == "--mcp-requests") s.mcp_requests = std::atoi(value.c_str());
    else if (flag == "--jobs") s.jobs = std::max(1, std::atoi(value.c_str()));
    else if (flag == "--seed") s.seed = std::strtoull(value.c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "fuzz_campaign: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  if (s.kopt.empty() || s.work.empty()) {
    std::fprintf(stderr, "usage: fuzz_campaign --kopt KOPT --work DIR [--mutants N] [--mcp-requests N] [--jobs J] "
                         "[--seed S]\n");
    return 2;
  }
  try {
    return kopt::fuzz::campaign(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_campaign: %s\n", e.what());
    return 2;
  }
}
