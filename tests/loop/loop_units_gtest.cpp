// The loop's small parts: the strategy tags an agent writes, the agent command's words, the
// manifest's record and checksum, and the memory's say in the ranking of suggestions.
#include <filesystem>

#include <functional>

#include <gtest/gtest.h>

#include "core/document.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/command_words.h"
#include "loop/run_manifest.h"
#include "loop/run_summaries.h"
#include "loop/strategy_tags.h"
#include "loop/suggestion_ranking.h"
#include "loop/version_judgement.h"
#include "memory/memory_files.h"
#include "memory/memory_store.h"
#include "memory/strategy_fingerprint.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using strings = std::vector<std::string>;

TEST(StrategyTags, AreTheItemsUnderTheirHeadingOnly) {
  const std::string proposal =
      "# Proposal\n- not_a_tag\n## Strategy tags\n\n<!-- one per line -->\n- vectorized_float4_io\r\n"
      "* `register_cached_exp`, thread_retile_128\n-\n## Notes\n- not_a_tag_either\n";
  EXPECT_EQ(parse_strategy_tags(proposal), (strings{"vectorized_float4_io", "register_cached_exp, thread_retile_128"}));
  EXPECT_TRUE(parse_strategy_tags("## Strategy tags\n").empty());
  EXPECT_TRUE(parse_strategy_tags("no heading\n- x\n").empty());
}

TEST(StrategyTags, AreReadAsThePythonToolkitReadsThem) {
  // Its heading in any case; an item with commas is one tag; an empty list is still a strategy.
  EXPECT_EQ(parse_strategy_tags("## STRATEGY TAGS\n- warp_reduce\n"), (strings{"warp_reduce"}));
  EXPECT_EQ(parse_strategy_tags("## strategy tags\n- x\n"), (strings{"x"}));
  EXPECT_EQ(strategy_of_proposal("## Strategy tags\n- a, b\n"), (strings{"a_b"}));
  EXPECT_EQ(strategy_of_proposal("## Strategy tags\n\n## Notes\n- not a tag\n"), (strings{"unlabeled_strategy"}));
  EXPECT_EQ(strategy_of_proposal("## Strategy Tags\n- Vectorized Loads\n- `shared_tile`\n"),
            (strings{"shared_tile", "vectorized_loads"}));
  EXPECT_TRUE(names_no_strategy(strategy_of_proposal("## Strategy tags\n")));
  EXPECT_FALSE(names_no_strategy(strings{"unlabeled_strategy", "x"}));
  EXPECT_FALSE(names_no_strategy(strings{}));
}

TEST(CommandWords, SplitAsAPosixShellWould) {
  EXPECT_EQ(split_command_words("python3 agent.py --model x"), (strings{"python3", "agent.py", "--model", "x"}));
  EXPECT_EQ(split_command_words("a 'b c' \"d \\\"e\\\"\" f\\ g ''"), (strings{"a", "b c", "d \"e\"", "f g", ""}));
  EXPECT_EQ(split_command_words("  tab\tseparated  "), (strings{"tab", "separated"}));
  EXPECT_EQ(split_command_words("x 'a|b;c$(d)'"), (strings{"x", "a|b;c$(d)"})) << "quoted operators are text";
  EXPECT_EQ(split_command_words("model~1 a#b"), (strings{"model~1", "a#b"}));
}

TEST(CommandWords, RefuseWhatOnlyAShellCouldDo) {
  for (const char* command : {"agent | tee log", "agent; rm -rf x", "agent && next", "agent > log", "agent $(id)",
                              "agent `id`", "agent $HOME", "agent *.cu", "~/agent", "agent #comment", "\"$(id)\"",
                              "agent 'open", "agent \"open", "agent \\", "", "   "}) {
    EXPECT_THROW(split_command_words(command), error) << command;
  }
  try {
    split_command_words("agent | tee log");
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("'|' outside quotes"), std::string::npos) << e.headline();
    EXPECT_NE(e.headline().find("put what needs one in a script"), std::string::npos);
  }
}

run_manifest sample_manifest() {
  run_manifest m;
  m.run_id = "run_20261201_120000";
  m.kernel = "/k/softmax.cu";
  m.backend = "cuda";
  m.frozen.dims = {"--rows=4096"};
  iteration_record r;
  r.iteration = 0;
  r.outcome = loop::version_outcome::baseline;
  r.median_ms = 0.125;
  r.median_ci95_ms = json::array({0.124, 0.126});
  m.iterations.push_back(r);
  m.best = 0;
  return m;
}

TEST(RunManifest, RoundTripsAndRefusesEditsAndForeignFiles) {
  kopt::testing::scratch_dir dir;
  write_run_manifest(dir.path(), sample_manifest());
  const run_manifest back = read_run_manifest(dir.path());
  EXPECT_EQ(json_text(to_json(back)), json_text(to_json(sample_manifest())));

  const fs::path file = dir.path() / run_manifest_name;
  std::string text = read_text_file(file);
  text.replace(text.find("0.125"), 5, "0.025");
  write_file_atomic(file, text);
  EXPECT_THROW(read_run_manifest(dir.path()), error);

  write_file_atomic(file, "{\"schema\": \"kopt.benchmark_result/v1\"}");
  EXPECT_THROW(read_run_manifest(dir.path()), error);
  fs::remove(file);
  EXPECT_THROW(read_run_manifest(dir.path()), error);
}

TEST(FastP, CountsIterationsARoundOnceThroughItsChosenCandidate) {
  run_manifest m = sample_manifest();
  m.reference = "/work/softmax_ref.py";
  m.iterations[0].speedup_vs_reference = 0.5;
  // v1: a round of three candidates; the chosen one (the iteration's own fields) is 1.6x.
  iteration_record round;
  round.iteration = 1;
  round.outcome = loop::version_outcome::positive;
  round.speedup_vs_reference = 1.6;
  for (const double s : {1.6, 1.7, 1.2}) {
    candidate_record c;
    c.candidate = static_cast<int>(round.candidates.size()) + 1;
    c.outcome = loop::version_outcome::positive;
    c.speedup_vs_reference = s;
    round.candidates.push_back(c);
  }
  round.chosen_candidate = 1;
  m.iterations.push_back(round);
  // v2: faster than the reference but wrong.
  iteration_record wrong;
  wrong.iteration = 2;
  wrong.outcome = loop::version_outcome::rejected;
  wrong.speedup_vs_reference = 3.0;
  m.iterations.push_back(wrong);
  EXPECT_DOUBLE_EQ(*fast_p(m, 1.0), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*fast_p(m, 1.5), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*fast_p(m, 2.0), 0.0);
  m.reference.clear();
  EXPECT_FALSE(fast_p(m, 1.0)) << "without a reference there is no speedup to count";
}

TEST(RunManifest, RoundTripsShapeChecksRoundsOfCandidatesAndAnOpenRound) {
  run_manifest m = sample_manifest();
  m.frozen.check_dims = {"--rows=1000"};
  m.frozen.check_problem_sha256 = {std::string(64, 'a')};
  m.iterations[0].checks = {{"--rows=1000", "passed", ""}};
  iteration_record round;
  round.iteration = 1;
  round.parent = 0;
  for (int j = 1; j <= 2; ++j) {
    candidate_record c;
    c.candidate = j;
    c.parent = 0;
    c.outcome = j == 1 ? version_outcome::positive : version_outcome::rejected;
    c.reason = j == 1 ? "0.8x" : "fails at --rows=1000: validation failed";
    c.checks = {{"--rows=1000", j == 1 ? "passed" : "failed", c.reason}};
    c.finished_at = "2026-12-01T00:00:00Z";
    round.candidates.push_back(c);
  }
  iteration_record closed = round;
  closed.chosen_candidate = 1;
  static_cast<version_record&>(closed) = closed.candidates[0];
  m.iterations.push_back(closed);
  m.open_round = round;
  m.open_round->iteration = 2;
  m.open_round->candidates[1].finished_at.clear();

  kopt::testing::scratch_dir dir;
  write_run_manifest(dir.path(), m);
  const run_manifest back = read_run_manifest(dir.path());
  EXPECT_EQ(json_text(to_json(back)), json_text(to_json(m)));
  ASSERT_EQ(back.iterations.size(), 2u);
  ASSERT_EQ(back.iterations[1].candidates.size(), 2u);
  EXPECT_EQ(back.iterations[1].chosen_candidate, 1);
  EXPECT_EQ(back.iterations[1].find_candidate(2)->checks[0].status, "failed");
  ASSERT_TRUE(back.open_round);
  EXPECT_TRUE(back.open_round->candidates[1].finished_at.empty());
  EXPECT_EQ(to_json(back)["schema"], "kopt.run_manifest/v5");
}

TEST(RunManifest, AVersion1ManifestIsReadAsARunWithoutShapesOrCandidates) {
  json document = to_json(sample_manifest());
  document["schema"] = "kopt.run_manifest/v1";
  document["frozen"].erase("check_dims");
  document["frozen"].erase("check_problem_sha256");
  document.erase("open_round");
  for (json& r : document["iterations"]) {
    for (const char* key : {"checks", "candidates", "chosen_candidate"}) r.erase(key);
  }
  document["content_sha256"] = sha256_hex(json_text(document, -1));
  kopt::testing::scratch_dir dir;
  write_json_file(dir.path() / run_manifest_name, document);
  const run_manifest back = read_run_manifest(dir.path());
  ASSERT_EQ(back.iterations.size(), 1u);
  EXPECT_EQ(back.iterations[0].median_ms, 0.125);
  EXPECT_TRUE(back.iterations[0].checks.empty());
  EXPECT_TRUE(back.iterations[0].candidates.empty());
  EXPECT_TRUE(back.frozen.check_dims.empty());
  EXPECT_FALSE(back.open_round);
}

// A v3 manifest said "problem changed" only in a rejected version's reason, and left a pending
// candidate's outcome empty: the loop must still refuse to go on from such a version, and resume
// the pending candidate.
TEST(RunManifest, AVersion3ManifestKeepsItsProblemChangedVersionsAndPendingCandidates) {
  run_manifest m = sample_manifest();
  iteration_record moved;
  moved.iteration = 1;
  moved.parent = 0;
  moved.outcome = version_outcome::rejected;
  moved.reason = "problem changed: this version declares other buffers than v0";
  m.iterations.push_back(moved);
  iteration_record failed = moved;
  failed.iteration = 2;
  failed.reason = "bench failed: validation failed";
  m.iterations.push_back(failed);
  m.open_round = iteration_record{};
  m.open_round->iteration = 3;
  m.open_round->parent = 0;
  m.open_round->candidates.resize(1);
  m.open_round->candidates[0].candidate = 1;
  json document = to_json(m);
  document["schema"] = "kopt.run_manifest/v3";
  for (json& r : document["iterations"]) r.erase("problem_changed");
  document["open_round"].erase("problem_changed");
  document["open_round"]["outcome"] = "";
  document["open_round"]["candidates"][0].erase("problem_changed");
  document["open_round"]["candidates"][0]["outcome"] = "";
  document["content_sha256"] = sha256_hex(json_text(document, -1));
  kopt::testing::scratch_dir dir;
  write_json_file(dir.path() / run_manifest_name, document);

  const run_manifest back = read_run_manifest(dir.path());
  ASSERT_EQ(back.iterations.size(), 3u);
  EXPECT_TRUE(declared_another_problem(back.iterations[1]));
  EXPECT_FALSE(declared_another_problem(back.iterations[2]));
  EXPECT_FALSE(declared_another_problem(back.iterations[0]));
  ASSERT_TRUE(back.open_round);
  EXPECT_EQ(enum_name(back.open_round->candidates[0].outcome), "pending");
  // Written back as v4, where the cause is a field of its own.
  const json again = to_json(back);
  EXPECT_EQ(again["schema"], "kopt.run_manifest/v5");
  EXPECT_EQ(again["iterations"][1]["problem_changed"], true);
}

TEST(RunManifest, AnOutcomeThatIsNoneOfTheNamesIsRefusedNamingTheField) {
  json document = to_json(sample_manifest());
  document["iterations"][0]["outcome"] = "faster";
  document["content_sha256"] = sha256_hex(json_text(document, -1));
  kopt::testing::scratch_dir dir;
  write_json_file(dir.path() / run_manifest_name, document);
  try {
    read_run_manifest(dir.path());
    FAIL() << "an outcome that is none of the names was read";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("iterations[0].outcome"), std::string::npos) << e.what();
  }
}
// A comparison in turns as the loop records it, with `key` set to `value`.
json compared_with(const std::string& key, const json& value) {
  version_comparison c;
  c.method = "in turns";
  c.stop = "settled";
  c.rounds = 6;
  c.file = "comparison.json";
  c.gpu = 0;
  json document = to_document(c);
  document[key] = value;
  return document;
}

TEST(RunManifest, AComparisonRoundTripsAndAVersion1OneWithoutItsMethodIsRead) {
  run_manifest m = sample_manifest();
  m.iterations[0].comparison = from_document<version_comparison>(compared_with("ratio", 0.8));
  kopt::testing::scratch_dir dir;
  write_run_manifest(dir.path(), m);
  const run_manifest back = read_run_manifest(dir.path());
  ASSERT_TRUE(back.iterations[0].comparison);
  EXPECT_EQ(back.iterations[0].comparison->ratio, 0.8);
  EXPECT_EQ(back.iterations[0].comparison->rounds, 6u);
  EXPECT_EQ(back.iterations[0].comparison->gpu, 0);

  // What a v1 manifest kept: the evidence alone.
  json document = to_json(sample_manifest());
  document["schema"] = "kopt.run_manifest/v1";
  document["iterations"][0]["comparison"] = measure::to_json(measure::outcome_evidence{});
  document["content_sha256"] = sha256_hex(json_text(document, -1));
  write_json_file(dir.path() / run_manifest_name, document);
  const run_manifest old = read_run_manifest(dir.path());
  ASSERT_TRUE(old.iterations[0].comparison);
  EXPECT_EQ(old.iterations[0].comparison->method, "not recorded (a manifest written before kopt kept it)");
  EXPECT_FALSE(old.iterations[0].comparison->stop);
}

// An agent can recompute the checksum: what it wrote must still be refused for what it is, with
// the field named.
TEST(RunManifest, AResealedManifestIsRefusedForWhatItHoldsNamingTheField) {
  const std::vector<std::pair<std::function<void(json&)>, std::string>> cases = {
      {[](json& d) { d["iterations"][0]["tags"] = "fast"; }, "field iterations[0].tags: must be an array"},
      {[](json& d) {
         d["iterations"][0]["median_ci95_ms"] = json::array({"a", 1});
       },
       "field iterations[0].median_ci95_ms: must be null or [low, high], two numbers"},
      {[](json& d) { d["iterations"][0]["iteration"] = 3; },
       "field iterations[0].iteration: is 3, expected 0"},
      {[](json& d) { d["best"] = 4; }, "field best: is 4, which is none of the run's iterations"},
      {[](json& d) { d["max_iterations"] = 1e300; }, "field max_iterations: must be a whole number"},
      {[](json& d) {
         d["iterations"][0]["step_seconds"] = json{{"bench", "slow"}};
       },
       "field iterations[0].step_seconds.bench: must be a number"},
      {[](json& d) { d["later"] = 1; }, "field later: is not a field of this document"},
      {[](json& d) { d["iterations"][0]["comparison"] = compared_with("ratio_ci95", json::array({0.9})); },
       "field iterations[0].comparison.ratio_ci95: "},
      {[](json& d) { d["iterations"][0]["comparison"] = compared_with("outcome", "faster"); },
       "field iterations[0].comparison.outcome: "},
      {[](json& d) { d["iterations"][0]["comparison"] = compared_with("gpu", "first"); },
       "field iterations[0].comparison.gpu: "},
      {[](json& d) { d["iterations"][0]["comparison"] = compared_with("speedup", 2); },
       "field iterations[0].comparison.speedup: is not a field of this document"}};
  ASSERT_EQ(cases.size(), 11u);
  for (const auto& [change, expected] : cases) {
    json document = to_json(sample_manifest());
    change(document);
    document["content_sha256"] = sha256_hex(json_text(document, -1));
    kopt::testing::scratch_dir dir;
    write_json_file(dir.path() / run_manifest_name, document);
    try {
      (void)read_run_manifest(dir.path());
      ADD_FAILURE() << expected << ": read";
    } catch (const error& e) {
      EXPECT_EQ(e.headline().rfind((dir.path() / run_manifest_name).string() + ": " + expected, 0), 0u) << e.headline();
      EXPECT_NE(e.headline().find("start a new run"), std::string::npos) << e.headline();
    }
  }
}

memory::strategy_summary summary_of(strings tags, int positive, int negative) {
  memory::strategy_summary s;
  s.tags = memory::normalize_tags(tags);
  s.fingerprint = memory::strategy_fingerprint("cuda", s.tags);
  s.positive = positive;
  s.negative = negative;
  return s;
}

TEST(SuggestionRanking, MemoryMovesSuggestionsAndBlockedOnesGoLast) {
  const std::vector<suggestion> kb = {{"a", "A", 30, "", {"coalesce_loads"}},
                                      {"b", "B", 25, "", {"vectorized_float4_io"}},
                                      {"c", "C", 20, "", {"shared_memory_tiling"}}};
  const auto empty = rank_suggestions(kb, {}, {}, "cuda", "dram-bound cuda");
  EXPECT_EQ(empty[0].entry.id, "a");
  EXPECT_TRUE(empty[0].memory_note.empty());

  const auto learned = rank_suggestions(kb, {summary_of({"vectorized_float4_io", "thread_retile_128"}, 2, 0),
                                             summary_of({"coalesce_loads"}, 0, 1)},
                                        {memory::strategy_fingerprint("cuda", {"shared_memory_tiling"})}, "cuda",
                                        "dram-bound cuda");
  EXPECT_EQ(learned[0].entry.id, "b");
  EXPECT_NE(learned[0].memory_note.find("worked 2x"), std::string::npos) << learned[0].memory_note;
  EXPECT_EQ(learned[1].entry.id, "a");
  EXPECT_EQ(learned[2].entry.id, "c");
  EXPECT_TRUE(learned[2].blocked);
}

TEST(SuggestionRanking, TheToolkitsImportedMemoryTakesPartAsWeakerEvidenceMarkedImported) {
  // Its global_strategy_memory.json as the toolkit writes it: a scope with an arch, no
  // bottleneck; its positive strategy shares tags with suggestion "b".
  kopt::testing::scratch_dir work;
  memory::memory_store store = memory::memory_store::open(work.path() / "memory.db");
  memory::import_memory_file(
      store, kopt::testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json");
  const memory::summary_filter scope{"cutlass", "dram", "sm_90a"};
  ASSERT_TRUE(store.summarize(scope).empty()) << "an exact match needs the bottleneck the toolkit did not keep";
  const auto unplaced = store.summarize_unplaced(scope);
  ASSERT_FALSE(unplaced.empty());
  EXPECT_TRUE(unplaced.front().unplaced);
  EXPECT_TRUE(store.summarize_unplaced({"cutlass", "", ""}).empty()) << "a filter naming nothing matches exactly";

  const std::vector<suggestion> kb = {{"a", "A", 30, "", {"coalesce_loads"}},
                                      {"b", "B", 25, "", {"vectorized_float4_io", "register_cached_exp"}}};
  const auto ranked = rank_suggestions(kb, unplaced, {}, "cutlass", "dram-bound cutlass");
  EXPECT_EQ(ranked[0].entry.id, "b");
  EXPECT_TRUE(ranked[0].imported);
  EXPECT_NE(ranked[0].memory_note.find("imported: worked 1x"), std::string::npos) << ranked[0].memory_note;
  EXPECT_FALSE(ranked[1].imported);

  // An exact match of the same size outweighs it.
  memory::strategy_summary exact = summary_of({"coalesce_loads"}, 1, 0);
  std::vector<memory::strategy_summary> both = unplaced;
  both.push_back(exact);
  EXPECT_EQ(rank_suggestions(kb, both, {}, "cutlass", "dram-bound cutlass")[0].entry.id, "a");
}

}  // namespace
}  // namespace kopt::loop
