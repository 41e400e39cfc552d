// Fuzzing that stays: every reader of untrusted text gets mutants of real inputs on every run.
// The kernel front end and ncu's pages are mutated by bytes; kopt's documents by structure
// (structured_mutation.h): the memory import in both formats, the run folder as kopt report
// reads and prints it, the comparison records, the reference-timing cache, ncu's pages and MCP
// requests (fuzz_targets.h). Each mutant must give a result or a kopt::error (an MCP request:
// an answer, never an exception); anything else fails the test and writes the mutant to a file
// to keep as a regression input, and a crash or a hang fails the test program. The seed is
// fixed (a run is reproducible); KOPT_FUZZ_SEED and KOPT_FUZZ_MUTANTS change it and the count,
// and a target stops after KOPT_FUZZ_SECONDS (60) so that the pass stays bounded under the
// sanitizers. scripts/fuzz_campaign.sh runs the long campaign through the kopt binary.
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "fuzz_targets.h"
#include "kernel/buffer_plan.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

std::uint64_t fuzz_seed() {
  const char* seed = std::getenv("KOPT_FUZZ_SEED");
  return seed != nullptr ? std::strtoull(seed, nullptr, 10) : 20261201;
}

int mutant_count(int default_count) {
  const char* count = std::getenv("KOPT_FUZZ_MUTANTS");
  return count != nullptr ? std::atoi(count) : default_count;
}

std::chrono::seconds time_limit() {
  const char* seconds = std::getenv("KOPT_FUZZ_SECONDS");
  return std::chrono::seconds(seconds != nullptr ? std::atoi(seconds) : 60);
}

struct fuzz_counts {
  int ran = 0;
  int accepted = 0;
  int refused = 0;  // a kopt::error: what bad input must get
  int findings = 0;
};

// Runs `reader` on `mutants` mutants from `make` (or until the time limit); an exception other
// than kopt::error (any at all when `refusals_are_findings`) is a finding.
fuzz_counts fuzz(const std::string& target, int mutants, const std::function<fuzz::mutant(std::mt19937_64&)>& make,
                 const std::function<void(const fuzz::mutant&)>& reader, bool refusals_are_findings = false) {
  std::mt19937_64 random(fuzz_seed());
  const auto stop = std::chrono::steady_clock::now() + time_limit();
  fuzz_counts counts;
  for (int i = 0; i < mutants && std::chrono::steady_clock::now() < stop; ++i) {
    const fuzz::mutant m = make(random);
    ++counts.ran;
    std::string escaped;
    try {
      reader(m);
      ++counts.accepted;
      continue;
    } catch (const error& e) {
      if (!refusals_are_findings) {
        ++counts.refused;
        continue;
      }
      escaped = e.what();
    } catch (const std::exception& e) {
      escaped = e.what();
    }
    const fs::path kept = fs::temp_directory_path() / fmt::format("kopt-fuzz-{}-{}.txt", target, i);
    write_file_atomic(kept, m.text);
    ADD_FAILURE() << target << " mutant " << i << " (" << m.mutations << ") threw " << escaped.substr(0, 500)
                  << " (input kept in " << kept << ")";
    if (++counts.findings == 5) break;
  }
  std::printf("[ fuzz     ] %s: %d mutants, %d read, %d refused\n", target.c_str(), counts.ran, counts.accepted,
              counts.refused);
  return counts;
}

// A text mutated by bytes, for the front end's sources.
fuzz::mutant from_texts(const std::vector<std::string>& inputs, std::mt19937_64& random) {
  return fuzz::mutate_text(inputs[random() % inputs.size()], random);
}

std::vector<std::string> files_in(const fs::path& dir, std::string_view suffix) {
  std::vector<std::string> texts;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().string().ends_with(suffix)) texts.push_back(read_text_file(entry.path(), "fuzz seed input"));
  }
  EXPECT_FALSE(texts.empty()) << dir;
  return texts;
}

TEST(Fuzz, AFindingFailsTheTestAndKeepsItsInput) {
  EXPECT_NONFATAL_FAILURE(
      fuzz("self_check", 1, [](std::mt19937_64&) { return fuzz::mutant{"solve(float* x)", "none"}; },
           [](const fuzz::mutant&) { throw std::runtime_error("boom"); }),
      "threw boom (input kept in");
  std::error_code ec;
  fs::remove(fs::temp_directory_path() / "kopt-fuzz-self_check-0.txt", ec);
}

TEST(Fuzz, StructuredMutantsCarryWhatTheReadersMustRefuse) {
  const json seed = json{{"a", json::array({1, 2})}, {"b", json{{"c", "text"}}}};
  std::mt19937_64 random(fuzz_seed());
  int deep = 0;
  int beyond_double = 0;
  int long_arrays = 0;
  int wrong_types = 0;
  int deletions = 0;
  for (int i = 0; i < 400; ++i) {
    const fuzz::mutant m = fuzz::mutate_json(seed, random);
    deep += m.mutations.find("nested_") != std::string::npos && m.text.size() > 200000 ? 1 : 0;
    beyond_double += m.text.find("1e999") != std::string::npos ? 1 : 0;
    long_arrays += m.mutations.find("array_100000") != std::string::npos ? 1 : 0;
    wrong_types += m.mutations.find("wrong_type") != std::string::npos ? 1 : 0;
    deletions += m.mutations.find("deletion") != std::string::npos ? 1 : 0;
  }
  EXPECT_GT(deep, 10);
  EXPECT_GT(beyond_double, 10);
  EXPECT_GT(long_arrays, 5);
  EXPECT_GT(wrong_types, 100);
  EXPECT_GT(deletions, 30);
}

TEST(Fuzz, KernelFrontEnd) {
  std::vector<std::string> sources = files_in(testing::source_dir() / "examples", ".cu");
  for (const auto& s : files_in(testing::source_dir() / "tests/data/signatures", ".cu")) sources.push_back(s);
  const std::vector<kernel::dimension_arg> dims = {{"N", "1024", false}, {"rows", "64", false}, {"cols", "128", false},
                                                   {"M", "64", false},   {"K", "64", false},    {"num_bins", "256", false},
                                                   {"alpha", "2.5", false}};
  // The dimensions a source names (the others would be refused before its buffers are planned).
  const auto dims_of = [&](const std::string& text) {
    std::vector<kernel::dimension_arg> named;
    for (const auto& d : dims) {
      if (text.find(d.name) != std::string::npos) named.push_back(d);
    }
    return named;
  };
  const auto make = [&](std::mt19937_64& random) { return from_texts(sources, random); };
  const fuzz_counts planned = fuzz("front_end", mutant_count(10000), make, [&](const fuzz::mutant& m) {
    kernel::plan_kernel("fuzz.cu", m.text, std::nullopt, dims_of(m.text), std::nullopt, {});
  });
  EXPECT_GT(planned.accepted, planned.ran / 10) << "the mutants never got past the dimensions";
  // The #if reader under definitions, on the same sources (the variants file among them).
  fuzz("conditionals", mutant_count(3000), make, [&](const fuzz::mutant& m) {
    kernel::plan_kernel("fuzz.cu", m.text, std::nullopt, dims_of(m.text), std::nullopt, {},
                        {"VARIANT=1", "USE_VECTORS", "TILE"});
  });
}

// Every reader of fuzz_targets.h; the memory and the run folder must both read and refuse
// some of their mutants (a mutator that changed nothing, or broke everything, would not).
class FuzzTarget : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzTarget, EveryMutantIsReadOrRefusedInOneLine) {
  const testing::scratch_dir work;
  const std::vector<fuzz::fuzz_target> targets = fuzz::fuzz_targets(work.path());
  ASSERT_EQ(targets.size(), 6u);
  const auto target = std::find_if(targets.begin(), targets.end(), [](const auto& t) { return t.name == GetParam(); });
  ASSERT_NE(target, targets.end()) << GetParam();
  const fuzz_counts counts = fuzz(target->name, mutant_count(3000), target->make, target->read);
  EXPECT_EQ(counts.findings, 0);
  EXPECT_GE(counts.ran, 100) << "too few mutants in the time given";
  EXPECT_EQ(counts.accepted + counts.refused + counts.findings, counts.ran);
  if (GetParam() == "memory_export" || GetParam() == "memory_toolkit" || GetParam() == "run_folder") {
    EXPECT_GT(counts.accepted, 0);
    EXPECT_GT(counts.refused, counts.ran / 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Readers, FuzzTarget,
                         ::testing::Values("memory_export", "memory_toolkit", "run_folder", "comparison_record",
                                           "reference_timing_cache", "ncu_pages"));

TEST(Fuzz, McpRequestsAreAnsweredWithoutAnException) {
  const testing::scratch_dir work;
  ::setenv("KOPT_MEMORY_DB", (work.path() / "memory.db").c_str(), 1);
  const fs::path workspace = fuzz::mcp_workspace(work.path());
  std::mt19937_64 random(fuzz_seed());
  const std::vector<std::string> lines = fuzz::mcp_session_lines(random, static_cast<std::size_t>(mutant_count(3000)));
  ASSERT_GT(lines.size(), 100u);
  std::size_t next = 0;
  const fuzz_counts counts = fuzz(
      "mcp_requests", static_cast<int>(lines.size()),
      [&](std::mt19937_64&) { return fuzz::mutant{lines[next++ % lines.size()], "mcp request"}; },
      [&](const fuzz::mutant& m) { fuzz::answer_mcp_line(m.text, workspace); }, true);
  EXPECT_EQ(counts.findings, 0);
  EXPECT_GE(counts.ran, 100);
  ::unsetenv("KOPT_MEMORY_DB");
}

}  // namespace
}  // namespace kopt
