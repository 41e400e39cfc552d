// The warm worker through the real kopt binary on the CPU: a command it runs for a client prints
// and ends as the same command run alone (in the client's folder, on the client's streams);
// the next command finds the same worker; another environment gets a worker of its own; a
// client that goes away cancels its command and the worker serves on; a worker killed in the
// middle of a command fails that command alone and the next one starts a new worker, which
// also runs a command that was waiting for the killed one; an idle worker ends and takes its
// socket with it.
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/json_io.h"
#include "core/subprocess.h"
#include "support/kopt_process.h"
#include "worker/descriptor_passing.h"
#include "worker/worker_address.h"

namespace kopt::worker {
namespace {
namespace fs = std::filesystem;
using kopt::testing::run_kopt;
using kopt::testing::scratch_dir;

class Worker : public ::testing::Test {
 protected:
  void SetUp() override {
    m_env = {{"KOPT_CACHE_DIR", (m_work.path() / "cache").string()}, {"KOPT_WARM_IDLE_SECONDS", "60"}};
    fs::copy_file(kopt::testing::source_dir() / "examples" / "vector_add.cu", m_work.path() / "k.cu");
    m_work.write("ref.py", "def reference(**kwargs):\n    pass\n");
  }
  void TearDown() override { run_kopt({"worker", "stop"}, m_env, m_work.path()); }

  process_result warm(std::vector<std::string> args, const std::map<std::string, std::string>& extra = {}) const {
    args.insert(args.begin(), "--warm");
    std::map<std::string, std::string> env = m_env;
    env.insert(extra.begin(), extra.end());
    return run_kopt(args, env, m_work.path());
  }

  json status(const std::map<std::string, std::string>& extra = {}) const {
    std::map<std::string, std::string> env = m_env;
    env.insert(extra.begin(), extra.end());
    const process_result r = run_kopt({"worker", "status", "--json"}, env, m_work.path());
    return json::parse(r.stdout_text);
  }

  // KOPT_PYTHON for the reference check: while the folder's `hold` file exists (60 s at most), it
  // waits, after writing its process id to `held.pid`; then it is the real Python.
  std::map<std::string, std::string> holding_python() const {
    const std::string hold = (m_work.path() / "hold").string();
    const fs::path script = m_work.write(
        "python", "#!/bin/sh\nif [ -e " + hold + " ]; then echo $$ > " + (m_work.path() / "held.pid").string() +
                      "; i=0; while [ -e " + hold + " ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; fi\n"
                      "exec python3 \"$@\"\n");
    fs::permissions(script, fs::perms::owner_all);
    return {{"KOPT_PYTHON", script.string()}};
  }

  pid_t wait_for_held_pid() const {
    for (int i = 0; i < 200; ++i) {
      if (fs::exists(m_work.path() / "held.pid")) {
        const std::string text = read_text_file(m_work.path() / "held.pid");
        if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }

  // What the workers of this test wrote to their log, for a failure's message.
  std::string worker_logs() const {
    std::string text;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(m_work.path() / "cache" / "worker", ec)) {
      if (entry.path().extension() == ".log") text += "\n" + entry.path().string() + ":\n" + read_text_file(entry.path());
    }
    return text;
  }

  scratch_dir m_work;
  std::map<std::string, std::string> m_env;
};

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

bool ends_within(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (alive(pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return !alive(pid);
}

TEST_F(Worker, ACommandItRunsPrintsAndEndsAsItWouldAloneInTheClientsFolder) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"bench", "missing.cu"}, {"bench", "missing.cu", "--json"}, {"bench", "--help"}}) {
    const process_result alone = run_kopt(args, m_env, m_work.path());
    const process_result served = warm(args);
    EXPECT_EQ(served.exit_code, alone.exit_code) << args.back();
    EXPECT_EQ(served.stdout_text, alone.stdout_text) << args.back();
    EXPECT_EQ(served.stderr_text, alone.stderr_text) << args.back();
  }
  // The relative path was the client's: the message names the file in the client's folder.
  EXPECT_NE(warm({"bench", "missing.cu"}).stderr_text.find((fs::canonical(m_work.path()) / "missing.cu").string()),
            std::string::npos);
  const json s = status();
  EXPECT_TRUE(s["running"].get<bool>());
  EXPECT_EQ(s["commands_served"], 4);
  EXPECT_EQ(s["kept_warm"], json::array()) << "nothing is kept warm for commands that never reached a GPU";
  const process_result text = run_kopt({"worker", "status"}, m_env, m_work.path());
  EXPECT_NE(text.stdout_text.find("kept warm: nothing yet"), std::string::npos) << text.stdout_text;
}

TEST_F(Worker, TheNextCommandFindsTheSameWorkerAndAnotherEnvironmentGetsItsOwn) {
  warm({"bench", "missing.cu"});
  const int pid = status()["pid"];
  warm({"compare", "missing.cu", "missing.cu"});
  EXPECT_EQ(status()["pid"], pid);
  EXPECT_EQ(status()["commands_served"], 2);
  EXPECT_FALSE(status({{"KOPT_SOME_SETTING", "1"}})["running"].get<bool>());
  warm({"bench", "missing.cu"}, {{"KOPT_SOME_SETTING", "1"}});
  const json other = status({{"KOPT_SOME_SETTING", "1"}});
  EXPECT_NE(other["pid"], pid);
  EXPECT_EQ(other["commands_served"], 1);
  run_kopt({"worker", "stop"}, {{"KOPT_CACHE_DIR", m_env["KOPT_CACHE_DIR"]}, {"KOPT_WARM_IDLE_SECONDS", "60"}, {"KOPT_SOME_SETTING", "1"}}, m_work.path());
}

TEST_F(Worker, OtherCommandsRunInTheClientItself) {
  EXPECT_EQ(warm({"inspect", "k.cu", "--N=1024"}).exit_code, 0);
  EXPECT_FALSE(status()["running"].get<bool>()) << "inspect needs no worker";
  // A loop with an agent would hold the worker for its whole length.
  const process_result looped = warm({"loop", "k.cu", "--max-iterations", "1", "--agent", "true", "--N=1024"});
  EXPECT_EQ(looped.exit_code, 2) << looped.stderr_text;
  EXPECT_FALSE(status()["running"].get<bool>()) << "loop --agent ran in the worker";
}

TEST_F(Worker, AClientThatGoesAwayCancelsItsCommandAndTheWorkerServesOn) {
  const auto python = holding_python();
  warm({"bench", "missing.cu"}, python);  // the worker, started with that Python
  const int pid = status(python)["pid"];
  m_work.write("hold", "");
  // The client runs in a process group of its own (run_kopt): killing that group is the client
  // going away, as a terminal's Ctrl-C takes a foreground command.
  std::thread client([&] { warm({"bench", "k.cu", "--ref", "ref.py", "--N=1024"}, python); });
  const pid_t held = wait_for_held_pid();
  ASSERT_GT(held, 0) << "the reference check never started";
  const json busy = status(python);  // answered while the command runs
  EXPECT_EQ(busy["pid"], pid);
  EXPECT_EQ(busy["running_command"][0], "bench") << busy.dump();
  // The client is the kopt process whose parent is this test: find it through /proc.
  pid_t client_pid = -1;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat;
    try {
      stat = read_text_file(entry.path() / "stat");
    } catch (...) {
      continue;
    }
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos || stat.find("(kopt)") == std::string::npos) continue;
    const pid_t parent = static_cast<pid_t>(std::stol(stat.substr(close + 4, stat.find(' ', close + 4) - close - 4)));
    if (parent == ::getpid()) client_pid = static_cast<pid_t>(std::stol(name));
  }
  ASSERT_GT(client_pid, 0);
  ::kill(client_pid, SIGKILL);
  client.join();
  EXPECT_TRUE(ends_within(held, std::chrono::seconds(10))) << "the command's program was not killed";
  fs::remove(m_work.path() / "hold");
  EXPECT_EQ(warm({"bench", "missing.cu"}, python).exit_code, 2);
  EXPECT_EQ(status(python)["pid"], pid) << "the same worker serves on";
  run_kopt({"worker", "stop"}, [&] { auto e = m_env; e.insert(python.begin(), python.end()); return e; }(), m_work.path());
}

TEST_F(Worker, AWorkerKilledMidCommandFailsThatCommandAloneAndTheNextStartsANewOne) {
  const auto python = holding_python();
  warm({"bench", "missing.cu"}, python);
  const int pid = status(python)["pid"];
  m_work.write("hold", "");
  process_result during;
  std::thread client([&] { during = warm({"bench", "k.cu", "--ref", "ref.py", "--N=1024"}, python); });
  const pid_t held = wait_for_held_pid();
  ASSERT_GT(held, 0) << "the reference check never started";
  ::kill(pid, SIGKILL);
  client.join();
  ::kill(-held, SIGKILL);  // its process group, orphaned by the worker's death
  EXPECT_EQ(during.exit_code, 2);
  EXPECT_NE(during.stderr_text.find("the warm worker ended during this command"), std::string::npos) << during.stderr_text;
  fs::remove(m_work.path() / "hold");
  const process_result next = warm({"bench", "missing.cu"}, python);
  EXPECT_EQ(next.exit_code, 2);
  EXPECT_NE(next.stderr_text.find("kernel file not found"), std::string::npos) << next.stderr_text << worker_logs();
  EXPECT_NE(status(python)["pid"], pid) << "a new worker took the killed one's place";
  run_kopt({"worker", "stop"}, [&] { auto e = m_env; e.insert(python.begin(), python.end()); return e; }(), m_work.path());
}

TEST_F(Worker, ACommandWaitingForAKilledWorkerRunsInTheNextOne) {
  const auto python = holding_python();
  warm({"bench", "missing.cu"}, python);
  const int pid = status(python)["pid"];
  m_work.write("hold", "");
  std::thread busy([&] { warm({"bench", "k.cu", "--ref", "ref.py", "--N=1024"}, python); });
  const pid_t held = wait_for_held_pid();
  ASSERT_GT(held, 0) << "the reference check never started";
  process_result waiting;
  std::thread second([&] { waiting = warm({"bench", "missing.cu"}, python); });
  for (int i = 0; i < 100 && status(python)["commands_waiting"] != 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(status(python)["commands_waiting"], 1);
  ::kill(pid, SIGKILL);
  busy.join();
  second.join();
  ::kill(-held, SIGKILL);
  fs::remove(m_work.path() / "hold");
  // Its command never started: a new worker ran it, and the client heard nothing of the old one.
  EXPECT_EQ(waiting.exit_code, 2);
  EXPECT_NE(waiting.stderr_text.find("kernel file not found"), std::string::npos) << waiting.stderr_text << worker_logs();
  EXPECT_EQ(waiting.stderr_text.find("warm worker"), std::string::npos) << waiting.stderr_text;
  EXPECT_NE(status(python)["pid"], pid) << "a new worker took the killed one's place";
  run_kopt({"worker", "stop"}, [&] { auto e = m_env; e.insert(python.begin(), python.end()); return e; }(), m_work.path());
}

TEST_F(Worker, StoppedWithACommandWaitingTheWaitingClientRunsItItself) {
  const auto python = holding_python();
  auto env = m_env;
  env.insert(python.begin(), python.end());
  warm({"bench", "missing.cu"}, python);
  m_work.write("hold", "");
  std::thread busy([&] { warm({"bench", "k.cu", "--ref", "ref.py", "--N=1024"}, python); });
  ASSERT_GT(wait_for_held_pid(), 0);
  process_result waiting;
  std::thread second([&] { waiting = warm({"bench", "missing.cu"}, python); });
  for (int i = 0; i < 100 && status(python)["commands_waiting"] != 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(status(python)["commands_waiting"], 1);
  EXPECT_EQ(run_kopt({"worker", "stop"}, env, m_work.path()).stdout_text, "kopt worker: stopping\n");
  fs::remove(m_work.path() / "hold");
  busy.join();
  second.join();
  EXPECT_EQ(waiting.exit_code, 2);
  EXPECT_NE(waiting.stderr_text.find("refused the command (the worker was stopped); running it on its own"),
            std::string::npos)
      << waiting.stderr_text;
  EXPECT_NE(waiting.stderr_text.find("kernel file not found"), std::string::npos) << waiting.stderr_text;
}

TEST_F(Worker, AnIdleWorkerEndsAndTakesItsSocketWithIt) {
  m_env["KOPT_WARM_IDLE_SECONDS"] = "1";
  warm({"bench", "missing.cu"});
  const int pid = status()["pid"];
  EXPECT_TRUE(ends_within(pid, std::chrono::seconds(10)));
  EXPECT_FALSE(status()["running"].get<bool>());
  for (const auto& entry : fs::directory_iterator(m_work.path() / "cache" / "worker")) {
    EXPECT_NE(entry.path().extension(), ".sock") << entry.path();
  }
}

TEST(DescriptorPassing, MessagesThatArriveTogetherAreReadOneAtATimeWithTheirDescriptors) {
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0);
  send_message(ends[0], json{{"started", true}});
  send_message(ends[0], json{{"exit_code", 3}});
  send_message(ends[0], json{{"with", "a descriptor"}}, {1});
  ::close(ends[0]);
  const auto first = receive_message(ends[1], std::chrono::seconds(5));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->message, (json{{"started", true}}));
  const auto second = receive_message(ends[1], std::chrono::seconds(5));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->message, (json{{"exit_code", 3}}));
  EXPECT_TRUE(second->fds.empty());
  const auto third = receive_message(ends[1], std::chrono::seconds(5));
  ASSERT_TRUE(third);
  EXPECT_EQ(third->fds.size(), 1u);
  for (int fd : third->fds) ::close(fd);
  EXPECT_FALSE(receive_message(ends[1], std::chrono::seconds(5))) << "the peer closed: nothing more";
  ::close(ends[1]);
}

TEST(WorkerAddress, TheIdentityFollowsTheVersionAndTheEnvironmentButNotTheShellsFolder) {
  const identity base = current_identity("1.0");
  EXPECT_NE(current_identity("1.1").digest, base.digest);
  ::setenv("PWD", "/elsewhere", 1);
  ::setenv("KOPT_WARM", "1", 1);
  EXPECT_EQ(current_identity("1.0").digest, base.digest);
  ::setenv("KOPT_ANYTHING", "x", 1);
  EXPECT_NE(current_identity("1.0").digest, base.digest);
  ::unsetenv("KOPT_ANYTHING");
  ::unsetenv("KOPT_WARM");
  EXPECT_NE(base.text.find("kopt 1.0"), std::string::npos);
}

}  // namespace
}  // namespace kopt::worker
