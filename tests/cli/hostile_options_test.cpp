// Reproducers: limits applied unevenly. --max-iterations 99999999999999999999 and --max-seconds
// inf were taken while --warmup 99999999999 was refused; an invalid --kernel-name-regex reached
// ncu. Every numeric option must be refused the same way, and the regex before ncu runs.
#include "core/files.h"

#include <gtest/gtest.h>

#include "hostile_input.h"

namespace kopt::hostile {
namespace {
using testing::first_line;
using testing::run_kopt;

TEST(HostileInput, OutOfRangeOrInfiniteNumericOptionsAreRefusedLikeWarmup) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"--max-iterations", {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "99999999999999999999"}},
      {"--max-iterations", {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "-1"}},
      {"--warmup", {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "1", "--warmup", "99999999999"}},
      {"--max-seconds", {"bench", example("vector_add.cu"), "--N=4", "--max-seconds", "inf"}},
      {"--max-seconds", {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "1", "--max-seconds", "nan"}},
      {"--min-seconds", {"bench", example("vector_add.cu"), "--N=4", "--min-seconds", "1e999"}},
      {"--seed", {"bench", example("vector_add.cu"), "--N=4", "--seed", "-1"}},
      {"--timeout", {"bench", example("vector_add.cu"), "--N=4", "--timeout", "1e300"}},
      {"--launch-skip", {"profile", example("vector_add.cu"), "--N=4", "--launch-skip", "99999999999"}},
      {"--agent-timeout", {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "1", "--agent-timeout", "inf"}}};
  for (const auto& [option, args] : cases) {
    const auto r = run_kopt(args, no_gpu);
    expect_one_line_error(r, option + " " + args.back());
    const std::string line = first_line(r.stderr_text);
    // "kopt: error: kopt loop: --max-iterations: 99999999999999999999 is out of range: give ..."
    EXPECT_NE(line.find(option + ": " + args.back() + " is "), std::string::npos) << line;
    EXPECT_NE(line.find(": give "), std::string::npos) << line;
  }
}

TEST(HostileInput, AnInvalidKernelNameRegexIsRefusedBeforeNcu) {
  scratch_dir dir;
  // An ncu that leaves a mark when kopt runs it for anything.
  const fs::path mark = dir.path() / "ncu_ran";
  const fs::path ncu = dir.write("ncu", "#!/bin/sh\ntouch '" + mark.string() + "'\n"
                                        "echo 'NVIDIA (R) Nsight Compute Command Line Profiler'\n"
                                        "echo 'Version 2025.3.1.0 (build 1) (public-release)'\n");
  fs::permissions(ncu, fs::perms::owner_all);
  const std::vector<std::vector<std::string>> cases = {
      {"profile", example("vector_add.cu"), "--N=4", "--ncu-bin", ncu.string(), "--kernel-name-regex", "(["},
      {"loop", example("vector_add.cu"), "--N=4", "--max-iterations", "1", "--ncu-bin", ncu.string(),
       "--kernel-name-regex", "([", "--run-dir", (dir.path() / "run").string()}};
  for (const auto& args : cases) {
    const auto r = run_kopt(args, no_gpu);
    expect_one_line_error(r, args.front());
    EXPECT_NE(first_line(r.stderr_text).find("--kernel-name-regex"), std::string::npos) << r.stderr_text;
    EXPECT_NE(first_line(r.stderr_text).find("(["), std::string::npos) << r.stderr_text;
  }
  EXPECT_FALSE(fs::exists(mark)) << "ncu ran";
}

}  // namespace
}  // namespace kopt::hostile
