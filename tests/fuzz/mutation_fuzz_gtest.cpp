// Fuzzing that stays: every reader of untrusted text (the kernel front end, the ncu CSV pages,
// kopt's JSON documents) gets thousands of mutants of real inputs per run: bytes flipped,
// ranges cut or repeated, tokens that parsers trip on inserted, text cut short. Each mutant
// must give a result or a kopt::error; any other exception fails the test and writes the
// mutant to a file to keep as a regression input, and a crash or a hang fails the test program.
// The seed is fixed (a run is reproducible); KOPT_FUZZ_SEED and KOPT_FUZZ_MUTANTS change it and
// the count for a longer run by hand.
#include <array>
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
#include "core/json_io.h"
#include "kernel/buffer_plan.h"
#include "memory/memory_store.h"
#include "pipeline/bench_result.h"
#include "pipeline/bench_verdict.h"
#include "support/timings.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

constexpr std::array<std::string_view, 24> tricky = {
    "(", ")", "[", "]", ",", "*", "const ", "//", "/*", "*/", "// kopt: ", "\"", "\n", "9223372036854775808",
    "-1e400", "\xff\xfe", "n/a", "extern \"C\" ", "solve(", "range(", "inout(", "\"\",\"\"", "{", "((((((((((((("};

std::uint64_t fuzz_seed() {
  const char* seed = std::getenv("KOPT_FUZZ_SEED");
  return seed != nullptr ? std::strtoull(seed, nullptr, 10) : 20261201;
}

int mutant_count(int default_count) {
  const char* count = std::getenv("KOPT_FUZZ_MUTANTS");
  return count != nullptr ? std::atoi(count) : default_count;
}

std::string mutate(const std::string& original, std::mt19937_64& random) {
  std::string text = original;
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = random() % text.size();
    const std::size_t span = 1 + random() % std::min<std::size_t>(64, text.size() - at);
    switch (random() % 6) {
      case 0: text[at] = static_cast<char>(random() % 256); break;                       // flip a byte
      case 1: text.erase(at, span); break;                                                // cut a range
      case 2: text.insert(at, text.substr(at, span)); break;                              // repeat a range
      case 3: text.insert(at, tricky[random() % tricky.size()]); break;                   // a tricky token
      case 4: text.resize(at); break;                                                     // cut short
      default: text.insert(at, std::string(1 + random() % 2000, text[at])); break;        // a long run
    }
  }
  return text;
}

// Runs `reader` on mutants of every input; any exception but kopt::error is a finding.
void fuzz(const char* target, const std::vector<std::string>& inputs, int mutants,
          const std::function<void(const std::string&)>& reader) {
  std::mt19937_64 random(fuzz_seed());
  int findings = 0;
  for (int i = 0; i < mutants; ++i) {
    const std::string mutant = mutate(inputs[static_cast<std::size_t>(i) % inputs.size()], random);
    try {
      reader(mutant);
    } catch (const error&) {
      // A clear refusal is what bad input must get.
    } catch (const std::exception& e) {
      const fs::path kept = fs::temp_directory_path() / fmt::format("kopt-fuzz-{}-{}.txt", target, i);
      write_file_atomic(kept, mutant);
      ADD_FAILURE() << target << " mutant " << i << " threw " << e.what() << " (input kept in " << kept << ")";
      if (++findings == 5) return;
    }
  }
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
  EXPECT_NONFATAL_FAILURE(fuzz("self_check", {"solve(float* x)"}, 1,
                               [](const std::string&) { throw std::runtime_error("boom"); }),
                          "threw boom (input kept in");
  std::error_code ec;
  fs::remove(fs::temp_directory_path() / "kopt-fuzz-self_check-0.txt", ec);
}

TEST(Fuzz, KernelFrontEnd) {
  std::vector<std::string> sources = files_in(testing::source_dir() / "examples", ".cu");
  for (const auto& s : files_in(testing::source_dir() / "tests/data/signatures", ".cu")) sources.push_back(s);
  const std::vector<kernel::dimension_arg> dims = {{"N", "1024", false}, {"rows", "64", false}, {"cols", "128", false},
                                                   {"M", "64", false},   {"K", "64", false},    {"num_bins", "256", false},
                                                   {"alpha", "2.5", false}};
  fuzz("front_end", sources, mutant_count(10000), [&](const std::string& text) {
    kernel::plan_kernel("fuzz.cu", text, std::nullopt, dims, std::nullopt, {});
  });
  // The #if reader under definitions, on the same sources (the variants file among them).
  fuzz("conditionals", sources, mutant_count(3000), [&](const std::string& text) {
    kernel::plan_kernel("fuzz.cu", text, std::nullopt, dims, std::nullopt, {}, {"VARIANT=1", "USE_VECTORS", "TILE"});
  });
}

TEST(Fuzz, NcuPages) {
  const fs::path h200 = testing::source_dir() / "tests/data/ncu/h200";
  fuzz("raw_csv", files_in(h200, "_raw.csv"), mutant_count(600),
       [](const std::string& text) { profile::parse_raw_csv(text, "fuzz_raw.csv"); });
  fuzz("details", files_in(h200, "_details.csv"), mutant_count(600),
       [](const std::string& text) { profile::parse_details(text); });
  fuzz("source", files_in(h200, "_source.csv"), mutant_count(300),
       [](const std::string& text) { profile::parse_source_counters(text); });
}

// A memory export as kopt writes it.
std::string memory_export() {
  memory::recorded_outcome o;
  o.run_id = "run-1";
  o.iteration = 2;
  o.fingerprint = "40f2b8f0ca5ba355";
  o.tags = {"baseline"};
  o.scope = {"cuda", "sm_90a", "softmax", "", "--rows=4096", "dram"};
  o.outcome = "positive";
  o.evidence = json{{"ratio", 0.9}};
  o.recorded_at = "2026-12-01T00:00:00Z";
  return json_text(with_schema("strategy_memory", 1, json{{"outcomes", json::array({memory::to_json(o), memory::to_json(o)})}}));
}

// A bench result with both sides timed and checked, as kopt writes it.
std::string bench_result_example() {
  pipeline::bench_result r;
  r.kernel = testing::timing_around(0.06122, 40);
  r.reference = testing::timing_around(0.0613, 40);
  r.correctness.checked = true;
  r.correctness.passed = true;
  r.correctness.seeds = {pipeline::seed_check{0, "before timing", true}};
  pipeline::add_timing_conclusions(r);
  return json_text(to_document(r));
}

TEST(Fuzz, JsonDocuments) {
  const std::vector<std::string> documents = {
      memory_export(),
      bench_result_example(),
      read_text_file(testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json",
                     "fuzz seed input")};
  fuzz("json", documents, mutant_count(6000), [](const std::string& text) {
    const json document = json::parse(text, nullptr, false);
    if (document.is_discarded()) return;  // not JSON: the readers never see it (read_json_file refuses it)
    pipeline::read_bench_result(document, "fuzz.json");
    if (document.is_object() && document.contains("outcomes") && document["outcomes"].is_array()) {
      for (const auto& entry : document["outcomes"]) memory::recorded_outcome_from_json(entry);
    }
  });
}

}  // namespace
}  // namespace kopt
