#include "integrity_checks.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>

#include <unistd.h>

#include <gtest/gtest.h>

#include "support/kopt_process.h"
#include "support/result_fields.h"

namespace kopt::integrity {
namespace fs = std::filesystem;
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

namespace {

void expect_reason_contains_any(const std::string& line, std::initializer_list<std::string_view> phrases) {
  const bool found = std::any_of(phrases.begin(), phrases.end(),
                                 [&](std::string_view p) { return line.find(p) != std::string::npos; });
  std::string wanted;
  for (const auto p : phrases) wanted += (wanted.empty() ? "\"" : ", \"") + std::string(p) + "\"";
  EXPECT_TRUE(found) << "first stderr line: " << line << "\nexpected it to contain one of: " << wanted;
}

void expect_timed_honestly(const bench_outcome& o) {
  ASSERT_TRUE(testing::present(o.result, "kernel") && testing::present(o.result, "reference")) << o.result.dump(1);
  EXPECT_GE(field(o.result, "/kernel/sample_count").get<int>(), 10);
  const double kernel_ms = field(o.result, "/kernel/median_ms").get<double>();
  const double reference_ms = field(o.result, "/reference/median_ms").get<double>();
  EXPECT_GE(kernel_ms, 0.5 * reference_ms) << "kernel " << kernel_ms << " ms against the reference's " << reference_ms
                                            << " ms: was work skipped or hidden from the timer?";
}

}  // namespace

bench_outcome bench(const fs::path& data, const std::string& kernel_file, const std::string& reference_file,
                    const std::vector<std::string>& extra_args, const std::map<std::string, std::string>& env) {
  static scratch_dir dir;
  static int counter = 0;
  const fs::path json_out = dir.path() / (fs::path(kernel_file).stem().string() + "-" + std::to_string(++counter) + ".json");
  std::vector<std::string> args = {"bench", (data / kernel_file).string(), "--ref",
                                   (data / reference_file).string()};
  // A case may size its own problem (--N=...); the others get a prime size, which no block size divides.
  const bool sized = std::any_of(extra_args.begin(), extra_args.end(),
                                 [](const std::string& arg) { return arg.rfind("--N=", 0) == 0; });
  if (!sized) args.push_back("--N=1000003");
  args.insert(args.end(), {"--max-seconds", "1", "--json-out", json_out.string()});
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const auto r = run_kopt(args, env);
  bench_outcome outcome{r.exit_code, first_line(r.stderr_text), r.stderr_text, nullptr};
  // The verdict of every case in the log, as evidence of what kopt said.
  std::printf("%s: exit %d: %s\n", kernel_file.c_str(), outcome.exit_code,
              outcome.exit_code == 0 ? "ok" : outcome.stderr_first_line.c_str());
  if (fs::exists(json_out)) {
    // No exceptions: a cheat may have forged the file (class 20); a non-JSON file reads as
    // "discarded", which fails the status checks with the evidence printed.
    outcome.result = nlohmann::json::parse(std::ifstream(json_out), nullptr, /*allow_exceptions=*/false);
    if (outcome.result.is_object() && outcome.result.contains("warnings")) {
      for (const auto& w : outcome.result["warnings"]) std::printf("  warning: %s\n", w.dump().c_str());
    }
  }
  return outcome;
}

const nlohmann::json& field(const nlohmann::json& document, const std::string& pointer) {
  return document.at(nlohmann::json::json_pointer(pointer));
}

std::string status_of(const bench_outcome& o) {
  return o.result.is_object() && o.result.contains("status") && o.result.at("status").is_string()
             ? o.result.at("status").get<std::string>()
             : "(no status in the --json-out file)";
}

void expect_failure(const bench_outcome& o, const std::string& status, std::initializer_list<std::string_view> phrases) {
  EXPECT_EQ(o.exit_code, 1) << o.stderr_text;
  EXPECT_EQ(status_of(o), status) << o.stderr_first_line;
  // The document is kopt's own, not a forged one (class 20 writes {"status":"ok"} without it).
  EXPECT_TRUE(o.result.is_object() && o.result.contains("schema")) << o.result.dump();
  if (phrases.size() > 0) expect_reason_contains_any(o.stderr_first_line, phrases);
}

void expect_flagged(const bench_outcome& o, std::string_view flag) {
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  expect_timed_honestly(o);
  ASSERT_TRUE(o.result.contains("warnings") && o.result.at("warnings").is_array()) << o.result.dump(1);
  const auto& warnings = o.result.at("warnings");
  const bool found = std::any_of(warnings.begin(), warnings.end(), [&](const nlohmann::json& w) {
    return w.is_string() && w.get<std::string>().rfind(flag, 0) == 0;
  });
  EXPECT_TRUE(found) << "no warning starting with \"" << flag << "\" in " << warnings.dump(1);
}

void expect_caught_or_forced_honest(const bench_outcome& o, std::initializer_list<std::string_view> phrases) {
  if (o.exit_code == 1) {
    expect_failure(o, "failed", phrases);
    return;
  }
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  expect_timed_honestly(o);
}

void expect_in_flight_caught_or_timed(const bench_outcome& o, std::initializer_list<std::string_view> phrases,
                                      double in_flight_ms, std::initializer_list<std::string_view> flags) {
  expect_caught_or_forced_honest(o, phrases);
  if (o.exit_code != 0) return;
  const double kernel_ms = field(o.result, "/kernel/median_ms").get<double>();
  std::printf("  timed: kernel median %.3f ms\n", kernel_ms);
  EXPECT_GE(kernel_ms, in_flight_ms) << "the work left in flight escaped the timer";
  if (flags.size() == 0) return;
  const auto& warnings = o.result.value("warnings", nlohmann::json::array());
  const bool flagged = std::any_of(warnings.begin(), warnings.end(), [&](const nlohmann::json& w) {
    return w.is_string() && std::any_of(flags.begin(), flags.end(), [&](std::string_view flag) {
             return w.get<std::string>().rfind(flag, 0) == 0;
           });
  });
  EXPECT_TRUE(flagged) << "the work left in flight was not flagged: " << warnings.dump(1);
}

write_probe::write_probe() : token(std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}())) {}

std::map<std::string, std::string> write_probe::env() const {
  return {{"KOPT_PROBE_TOKEN", token}, {"KOPT_PROBE_RUN_DIR", run_dir.path().string()}};
}

std::vector<fs::path> write_probe::refused_targets() const {
  const std::string name = "kopt-probe-" + token;
  return {fs::path("/tmp") / name, fs::path("/dev/shm") / name, run_dir.path() / name};
}

void expect_sandboxed(const nlohmann::json& sandbox, const write_probe& probe) {
  for (const fs::path& target : probe.refused_targets()) {
    EXPECT_FALSE(fs::exists(target)) << "the code under test wrote " << target;
    std::error_code ec;
    fs::remove(target, ec);
  }
  ASSERT_TRUE(sandbox.is_string()) << "no sandbox recorded: " << sandbox.dump();
  const std::string text = sandbox.get<std::string>();
  ASSERT_EQ(text.rfind("Landlock ABI ", 0), 0u) << "this GPU machine ran the code under test without a sandbox: " << text;
  // "Landlock ABI N: writes only under A, B; in place to C, D": the folders, one by one.
  const std::string under = "writes only under ";
  std::string folders = text.substr(text.find(under) + under.size());
  folders = folders.substr(0, folders.find("; in place to "));
  std::vector<std::string> listed;
  for (std::size_t at = 0; at <= folders.size();) {
    const std::size_t comma = std::min(folders.find(", ", at), folders.size());
    listed.push_back(folders.substr(at, comma - at));
    at = comma + 2;
  }
  ASSERT_FALSE(listed.empty()) << text;
  for (const std::string& folder : listed) {
    for (const char* closed : {"/tmp", "/dev", "/dev/shm", "/proc", "/var/tmp"}) EXPECT_NE(folder, closed) << text;
    EXPECT_NE(fs::path(folder), probe.run_dir.path()) << text;
  }
}

bench_outcome profile_under_ncu(const fs::path& data, const std::string& kernel_file, const std::string& reference_file,
                                const fs::path& out, const std::map<std::string, std::string>& env) {
  const auto r = run_kopt({"profile", (data / kernel_file).string(), "--ref", (data / reference_file).string(),
                           "--N=1000003", "--out", out.string(), "--json"},
                          env);
  bench_outcome outcome{r.exit_code, first_line(r.stderr_text), r.stderr_text, nullptr};
  std::printf("%s under ncu: exit %d: %s\n", kernel_file.c_str(), outcome.exit_code,
              outcome.exit_code == 0 ? "ok" : outcome.stderr_first_line.c_str());
  outcome.result = nlohmann::json::parse(r.stdout_text, nullptr, /*allow_exceptions=*/false);
  return outcome;
}

void expect_writes_outside_refused(const std::filesystem::path& data, const std::string& kernel_file,
                                   const std::string& reference_file, probe_run where) {
  const write_probe probe;
  bench_outcome o;
  if (where == probe_run::under_ncu) {
    // The profiled process (kopt's measuring child) is the one confined; ncu takes its lock files.
    o = profile_under_ncu(data, kernel_file, reference_file, probe.run_dir.path() / "profile", probe.env());
  } else {
    const std::vector<std::string> extra =
        where == probe_run::profile_mode ? std::vector<std::string>{"--profile-mode"} : std::vector<std::string>{};
    o = bench(data, kernel_file, reference_file, extra, probe.env());
  }
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  ASSERT_TRUE(o.result.is_object()) << o.stderr_text;
  EXPECT_EQ(o.result.value("status", ""), "ok") << o.result.dump(1);
  if (where == probe_run::under_ncu) {
    EXPECT_GE(o.result.value("kernel_count", 0), 1) << o.result.dump(1);
  }
  expect_sandboxed(o.result.value("sandbox", nlohmann::json()), probe);
}

}  // namespace kopt::integrity
