// Whole-program tests of the option parser's errors as a user meets them: one `kopt: error:`
// line naming the problem and what to do, a suggestion for a typo, and with --json a JSON
// object on stdout.
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;

TEST(Version, NamesTheCommitAndTheBuildDate) {
  const auto r = run_kopt({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  // "kopt 0.1.0 (commit 1234567890ab, built 2026-12-02)"; "+changes" marks a tree with
  // uncommitted changes, "unknown" a build outside a git checkout.
  const std::string line = first_line(r.stdout_text);
  EXPECT_EQ(line.rfind("kopt ", 0), 0u) << line;
  const std::size_t commit = line.find("(commit ");
  ASSERT_NE(commit, std::string::npos) << line;
  const std::string hash = line.substr(commit + 8, line.find_first_of("+,", commit + 8) - commit - 8);
  EXPECT_TRUE(hash == "unknown" || (hash.size() == 12 && hash.find_first_not_of("0123456789abcdef") == std::string::npos))
      << line;
  const std::size_t built = line.find(", built ");
  ASSERT_NE(built, std::string::npos) << line;
  EXPECT_EQ(line.size(), built + 8 + 10 + 1) << "a date YYYY-MM-DD, then ')': " << line;
}

TEST(UsageErrors, AMistypedCommandGetsTheCommandItResembles) {
  const auto r = run_kopt({"bnch", "examples/vector_add.cu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: unknown command 'bnch'; did you mean bench? (kopt --help lists them)");
  EXPECT_TRUE(r.stdout_text.empty());
}

TEST(UsageErrors, NoCommandListsThem) {
  const auto r = run_kopt({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: give a command: preflight, inspect, compile, bench", 0), 0u)
      << r.stderr_text;
  // kopt's internal processes are offered to no one, not even as a suggestion.
  EXPECT_EQ(first_line(r.stderr_text).find("harness"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(first_line(r.stderr_text).find("text-pages"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(first_line(run_kopt({"harnes"}).stderr_text), "kopt: error: unknown command 'harnes' (kopt --help lists them)");
}

TEST(UsageErrors, AMistypedOptionGetsTheOptionItResembles) {
  const auto r = run_kopt({"compile", "--jsn", "examples/vector_add.cu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: unknown option --jsn for kopt compile; did you mean --json? (kopt compile --help)");
}

// A command that takes dimensions reads an unknown --NAME as one; a name one letter off an
// option, without a number for a value, is that option mistyped.
TEST(UsageErrors, AMistypedOptionThatParsesLikeADimensionGetsTheOptionItResembles) {
  const std::string kernel = (testing::source_dir() / "examples" / "vector_add.cu").string();
  const auto ref = run_kopt({"bench", kernel, "--reff", "examples/vector_add_ref.py", "--N=1024"},
                            {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(ref.exit_code, 2);
  EXPECT_EQ(first_line(ref.stderr_text),
            "kopt: error: unknown option --reff for kopt bench; did you mean --ref? (a dimension is written "
            "--reff=NUMBER, or --dim reff=NUMBER; kopt bench --help)");
  const auto hot = run_kopt({"bench", kernel, "--hott", "--N=1024"}, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(hot.exit_code, 2);
  EXPECT_EQ(first_line(hot.stderr_text).rfind("kopt: error: unknown option --hott for kopt bench; did you mean --hot?", 0),
            0u)
      << hot.stderr_text;
  const auto profile = run_kopt({"profile", kernel, "--N=1024", "--outt", "x"}, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(profile.exit_code, 2);
  EXPECT_EQ(first_line(profile.stderr_text)
                .rfind("kopt: error: unknown option --outt for kopt profile; did you mean --out?", 0),
            0u)
      << profile.stderr_text;
  // A number is a dimension's value: the kernel's own check names it (solve() has no warmupp),
  // and the option it is one typo from.
  const auto numeric = run_kopt({"bench", kernel, "--N=1024", "--warmupp", "5"}, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(numeric.exit_code, 2);
  EXPECT_EQ(first_line(numeric.stderr_text)
                .rfind("kopt: error: unknown dimension --warmupp=5: solve() has no scalar parameter warmupp; did you "
                       "mean the option --warmup? its scalars are ",
                       0),
            0u)
      << numeric.stderr_text;
}

// Where a command takes no dimensions, an unknown option and its value are not CLI11's raw list.
TEST(UsageErrors, AMistypedOptionWithAValueIsNamedNotListed) {
  const auto r = run_kopt({"analyze", "report.csv", "--outt", "x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: unknown option --outt for kopt analyze; did you mean --out? (kopt analyze --help)");
}

TEST(UsageErrors, ABadValueNamesTheOptionAndTheValue) {
  const auto r = run_kopt({"bench", "examples/vector_add.cu", "--warmup", "abc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: --warmup abc: not a valid value for --warmup (kopt bench --help)");
}

TEST(UsageErrors, AMissingKernelIsNamedBeforeAnyGpuCheck) {
  const auto r = run_kopt({"bench"}, {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: kopt bench: kernel is required (kopt bench --help)");
}

TEST(UsageErrors, AMistypedKbCommandGetsTheOneItResembles) {
  const auto r = run_kopt({"kb", "shw", "tiling"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: kopt kb: unknown command 'shw'; did you mean show? (kopt kb --help)");
}

TEST(UsageErrors, AMalformedCheckDimsIsOneLineBeforeAnyGpuCheck) {
  const testing::scratch_dir work;
  const std::string kernel = (testing::source_dir() / "examples" / "softmax_naive.cu").string();
  const std::vector<std::string> loop = {"loop",
                                         kernel,
                                         "--rows=4096",
                                         "--cols=1024",
                                         "--max-iterations",
                                         "1",
                                         "--run-dir",
                                         (work.path() / "run").string(),
                                         "--new-run"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = loop;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_kopt(args, {{"CUDA_VISIBLE_DEVICES", ""}});
  };
  // The value starts with "--": it still reaches the loop whole, in both spellings.
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--check-dims", "--rows=1000 --widths=3"},
        std::vector<std::string>{"--check-dims=--rows=1000 --widths=3"}}) {
    const auto r = with(extra);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(
        first_line(r.stderr_text),
        "kopt: error: malformed --check-dims \"--rows=1000 --widths=3\": widths is not one of the "
        "benchmarked "
        "dimensions (--rows=4096 --cols=1024); write each shape as dimension flags in one argument, e.g. "
        "--check-dims \"--rows=1000 --cols=1000\"");
    EXPECT_EQ(r.stderr_text.find('\n'), r.stderr_text.size() - 1) << r.stderr_text;
  }
  const auto no_flag = with({"--check-dims", "rows=1000"});
  EXPECT_EQ(no_flag.exit_code, 2);
  EXPECT_NE(first_line(no_flag.stderr_text).find("'rows=1000' is not a dimension flag"), std::string::npos)
      << no_flag.stderr_text;
  // Well formed, but not a value the kernel can take: named with the shape, before any GPU work.
  const auto bad_value = with({"--check-dims", "--rows=1000 --cols=abc"});
  EXPECT_EQ(bad_value.exit_code, 2);
  EXPECT_EQ(first_line(bad_value.stderr_text)
                .rfind("kopt: error: --check-dims \"--rows=1000 --cols=abc\": bad value for "
                       "dimension cols",
                       0),
            0u)
      << bad_value.stderr_text;
  const auto candidates = with({"--candidates", "2"});
  EXPECT_EQ(candidates.exit_code, 2);
  EXPECT_EQ(first_line(candidates.stderr_text),
            "kopt: error: --candidates needs --agent: the agent writes the candidates of each iteration "
            "(docs/loop.md)");
  // --tune's options: each refused in one line before anything is measured.
  EXPECT_EQ(first_line(with({"--tune-budget", "4"}).stderr_text),
            "kopt: error: --tune-budget and --tune-strategy need --tune (docs/tune.md)");
  const auto strategy = with({"--tune", "--tune-strategy", "bayes"});
  EXPECT_EQ(strategy.exit_code, 2);
  EXPECT_EQ(first_line(strategy.stderr_text),
            "kopt: error: --tune-strategy bayes: kopt tune knows exhaustive, random, gp, tpe");
}

TEST(UsageErrors, ALoopsSamplingFloorAboveItsLimitIsRefusedBeforeTheRunFolder) {
  // Every version would stop on the limit, unconverged.
  const testing::scratch_dir work;
  const std::string kernel = (testing::source_dir() / "examples" / "softmax_naive.cu").string();
  const auto r = run_kopt({"loop", kernel, "--rows=4096", "--cols=1024", "--max-iterations", "1", "--run-dir",
                           (work.path() / "run").string(), "--min-seconds", "5", "--max-seconds", "2"},
                          {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: sampling's minimum time (5 s, --min-seconds)", 0),
            0u)
      << r.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(work.path() / "run")) << "nothing is written for a refused call";
}

TEST(UsageErrors, ALoopRunDirWithoutARunIsRefusedUnlessNewRun) {
  // An agent's v1 must never silently become a new run's v0.
  const testing::scratch_dir work;
  const std::string kernel = (testing::source_dir() / "examples" / "softmax_naive.cu").string();
  const std::string run = (work.path() / "optimize_runs" / "run_20261201_183000").string();
  const auto r = run_kopt({"loop", kernel, "--rows=4096", "--cols=1024", "--max-iterations", "1", "--run-dir", run},
                          {{"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text, "kopt: error: --run-dir " + run +
                               " holds no run (no run_manifest.json): give the folder kopt loop printed as \"run "
                               "folder\", or add --new-run to start a new run there\n");
  EXPECT_FALSE(std::filesystem::exists(run)) << "nothing is written for a refused call";
}

TEST(UsageErrors, WithJsonEveryErrorIsAJsonObjectOnStdout) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compile", "--json", "--jsn", "examples/vector_add.cu"},
        std::vector<std::string>{"inspect", "no_such_kernel.cu", "--json"}}) {
    const auto r = run_kopt(args);
    EXPECT_EQ(r.exit_code, 2);
    const auto document = nlohmann::json::parse(r.stdout_text);
    EXPECT_EQ(document["schema"], "kopt.error/v1");
    EXPECT_EQ(document["exit_code"], 2);
    EXPECT_EQ("kopt: error: " + document["error"].get<std::string>(), first_line(r.stderr_text));
  }
}

// --gpus spreads a round's candidates: without a round, beside --gpu, misspelled or on a machine
// without a GPU it is refused before anything runs, with what to write instead.
TEST(UsageErrors, GpusIsRefusedWhereItCannotSpreadARound) {
  const std::string kernel = (testing::source_dir() / "examples" / "softmax_naive.cu").string();
  const std::vector<std::string> loop = {"loop", kernel, "--rows=4096", "--cols=1024", "--max-iterations", "1"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = loop;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_kopt(args, {{"CUDA_VISIBLE_DEVICES", ""}});
  };
  const auto alone = with({"--gpus", "all"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_EQ(first_line(alone.stderr_text),
            "kopt: error: --gpus spreads the candidates of a round over GPUs: give --agent CMD --candidates K (K > 1)");
  const std::vector<std::string> round = {"--agent", "true", "--candidates", "2"};
  auto both = round;
  both.insert(both.end(), {"--gpus", "0,1", "--gpu", "1"});
  EXPECT_EQ(first_line(with(both).stderr_text), "kopt: error: give --gpu or --gpus, not both");
  auto typo = round;
  typo.insert(typo.end(), {"--gpus", "0,x"});
  const auto mistyped = with(typo);
  EXPECT_EQ(mistyped.exit_code, 2);
  EXPECT_NE(first_line(mistyped.stderr_text).find("\"x\""), std::string::npos) << mistyped.stderr_text;
  auto none = round;
  none.insert(none.end(), {"--gpus", "all"});
  const auto no_gpu = with(none);
  EXPECT_EQ(no_gpu.exit_code, 2);
  EXPECT_EQ(first_line(no_gpu.stderr_text).rfind("kopt: error: --gpus all: ", 0), 0u) << no_gpu.stderr_text;
}

}  // namespace
}  // namespace kopt
