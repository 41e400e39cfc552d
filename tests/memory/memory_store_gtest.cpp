// The strategy memory on a real SQLite file: replays are no-ops, fingerprints are checked,
// scopes block and prefer, older schemas migrate, foreign and newer files are refused, and
// two writers at once lose nothing.
#include "memory/memory_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <barrier>
#include <mutex>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "memory/strategy_fingerprint.h"
#include "support/kopt_process.h"

namespace kopt::memory {
namespace {
namespace fs = std::filesystem;

memory_scope softmax_scope() { return {"cuda", "sm_90a", "softmax", "", "--rows=4096 --cols=1024", "dram"}; }

recorded_outcome outcome_of(const std::string& run, std::int64_t iteration, std::vector<std::string> tags,
                            const char* verdict, memory_scope scope = softmax_scope()) {
  recorded_outcome o;
  o.run_id = run;
  o.iteration = iteration;
  o.tags = std::move(tags);
  o.scope = std::move(scope);
  o.outcome = verdict;
  o.reason = "test";
  o.evidence = json{{"ratio", 0.9}};
  return o;
}

void run_sql(const fs::path& file, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

TEST(MemoryStore, AnOutcomeIsRecordedOnceAndAReplayChangesNothing) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "sub" / "memory.db");
  EXPECT_EQ(store.schema_version(), memory_store::current_schema_version());
  EXPECT_TRUE(store.record(outcome_of("run-1", 1, {"Vectorized Float4 IO"}, "positive")));
  EXPECT_FALSE(store.record(outcome_of("run-1", 1, {"Vectorized Float4 IO"}, "negative")));  // replay after a kill
  const auto history = store.history(strategy_fingerprint("cuda", {"vectorized_float4_io"}));
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].outcome, "positive");
  EXPECT_EQ(history[0].tags, std::vector<std::string>{"vectorized_float4_io"});
  EXPECT_EQ(history[0].evidence["ratio"], 0.9);
  EXPECT_FALSE(history[0].recorded_at.empty());
}

TEST(MemoryStore, AFingerprintThatIsNotItsTagsIsRefused) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
  recorded_outcome o = outcome_of("run-1", 1, {"baseline"}, "positive");
  o.fingerprint = "0000000000000000";
  EXPECT_THROW(store.record(o), error);
  o = outcome_of("run-1", 1, {"baseline"}, "better");
  EXPECT_THROW(store.record(o), error);
  EXPECT_TRUE(store.all().empty());
}

TEST(MemoryStore, ScopesBlockFailuresAndPreferWinsOnlyWhereTheyHappened) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
  store.record(outcome_of("run-1", 1, {"shared_memory_tiling"}, "negative"));
  store.record(outcome_of("run-1", 2, {"vectorized_float4_io"}, "positive"));
  store.record(outcome_of("run-1", 3, {"unroll_8"}, "rejected"));
  memory_scope other = softmax_scope();
  other.dims = "--rows=128 --cols=65536";
  store.record(outcome_of("run-2", 1, {"shared_memory_tiling"}, "positive", other));
  std::vector<std::string> failed = {strategy_fingerprint("cuda", {"unroll_8"}),
                                     strategy_fingerprint("cuda", {"shared_memory_tiling"})};
  std::sort(failed.begin(), failed.end());  // listed by fingerprint
  EXPECT_EQ(store.blocked(softmax_scope()), failed);
  EXPECT_EQ(store.preferred(softmax_scope()),
            std::vector<std::string>{strategy_fingerprint("cuda", {"vectorized_float4_io"})});
  EXPECT_TRUE(store.blocked(other).empty());
  const auto dram = store.summarize({"cuda", "dram", ""});
  ASSERT_EQ(dram.size(), 3u);
  EXPECT_TRUE(store.summarize({"cuda", "compute", ""}).empty());
}

TEST(MemoryStore, ADatabaseOfTheFirstSchemaIsMigratedWithItsOutcomes) {
  testing::scratch_dir dir;
  const fs::path file = dir.path() / "memory.db";
  // The file as the first schema wrote it.
  run_sql(file,
          "CREATE TABLE outcomes (run_id TEXT NOT NULL, iteration INTEGER NOT NULL, candidate TEXT NOT NULL,"
          " fingerprint TEXT NOT NULL, backend TEXT NOT NULL, tags TEXT NOT NULL, arch TEXT NOT NULL, op TEXT NOT NULL,"
          " op_family TEXT NOT NULL, dims TEXT NOT NULL, bottleneck TEXT NOT NULL,"
          " outcome TEXT NOT NULL CHECK (outcome IN ('positive','negative','neutral','inconclusive','rejected')),"
          " reason TEXT NOT NULL, evidence TEXT NOT NULL, recorded_at TEXT NOT NULL,"
          " PRIMARY KEY (run_id, iteration, candidate));"
          "CREATE INDEX outcomes_by_fingerprint ON outcomes (fingerprint);"
          "CREATE INDEX outcomes_by_scope ON outcomes (backend, arch, op, dims);"
          "INSERT INTO outcomes VALUES ('old', 1, '', '40f2b8f0ca5ba355', 'cuda', '[\"baseline\"]', 'sm_90a', 'softmax',"
          " '', '', 'dram', 'neutral', 'kept', '{}', '2026-11-01T00:00:00Z');"
          "PRAGMA application_id=1802465396; PRAGMA user_version=1;");
  memory_store store = memory_store::open(file);
  EXPECT_EQ(store.schema_version(), memory_store::current_schema_version());
  ASSERT_EQ(store.history("40f2b8f0ca5ba355").size(), 1u);
  EXPECT_EQ(store.history("40f2b8f0ca5ba355")[0].reason, "kept");
  // Migration 4 rebuilt the table: the row is its iteration's first attempt, still counted.
  EXPECT_EQ(store.history("40f2b8f0ca5ba355")[0].attempt, 1);
  EXPECT_FALSE(store.history("40f2b8f0ca5ba355")[0].superseded);
  EXPECT_EQ(store.summarize({}).size(), 1u);
  EXPECT_FALSE(store.record(outcome_of("old", 1, {"baseline"}, "neutral", {"cuda", "sm_90a", "softmax", "", "", "dram"})))
      << "the old key still holds: a replay of the first attempt changes nothing";
}

// A redone iteration: both attempts are kept under one (run, iteration), and the superseded
// one no longer blocks its strategy or counts in a summary.
TEST(MemoryStore, ARedoneIterationKeepsBothAttemptsAndCountsOnlyTheLast) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
  ASSERT_TRUE(store.record(outcome_of("r", 3, {"retile_64"}, "rejected")));
  EXPECT_EQ(store.blocked(softmax_scope()).size(), 1u);
  store.supersede("r", 3, 1);
  store.supersede("r", 3, 1);  // a replay changes nothing
  EXPECT_TRUE(store.blocked(softmax_scope()).empty()) << "a superseded attempt blocks nothing";
  recorded_outcome again = outcome_of("r", 3, {"retile_64"}, "positive");
  again.attempt = 2;
  ASSERT_TRUE(store.record(again)) << "attempt 2 is a new row";
  const auto history = store.history(strategy_fingerprint("cuda", {"retile_64"}));
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].attempt, 1);
  EXPECT_TRUE(history[0].superseded);
  EXPECT_EQ(history[1].attempt, 2);
  EXPECT_FALSE(history[1].superseded);
  const auto summary = store.summarize({});
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].positive, 1);
  EXPECT_EQ(summary[0].rejected, 0);
  EXPECT_EQ(store.preferred(softmax_scope()).size(), 1u);
}

TEST(MemoryStore, AnotherProgramsFileAndANewerSchemaAreRefusedUntouched) {
  testing::scratch_dir dir;
  const fs::path foreign = dir.path() / "foreign.db";
  run_sql(foreign, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');");
  try {
    memory_store::open(foreign);
    FAIL() << "a foreign database must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("is not a kopt strategy memory"), std::string::npos) << e.headline();
  }
  const fs::path newer = dir.path() / "newer.db";
  run_sql(newer, "PRAGMA application_id=1802465396; PRAGMA user_version=99; CREATE TABLE future (x);");
  try {
    memory_store::open(newer);
    FAIL() << "a newer schema must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("written by a newer kopt (memory schema 99"), std::string::npos) << e.headline();
  }
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(MemoryStore, ARefusedFileIsOnlyReadNeverSwitchedOrMigrated) {
  testing::scratch_dir dir;
  const fs::path foreign = dir.path() / "foreign.db";
  run_sql(foreign, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');");
  const fs::path minus = dir.path() / "minus5.db";
  run_sql(minus, "PRAGMA application_id=1802465396; PRAGMA user_version=-5; CREATE TABLE outcomes (x);");
  const fs::path unmarked = dir.path() / "zero.db";
  run_sql(unmarked, "PRAGMA application_id=1802465396; CREATE TABLE outcomes (x);");
  for (const fs::path& file : {foreign, minus, unmarked}) {
    const std::string before = bytes_of(file);
    EXPECT_THROW(memory_store::open(file), error) << file;
    EXPECT_THROW(memory_store::open_read_only(file), error) << file;
    EXPECT_EQ(bytes_of(file), before) << file << " was changed";
    EXPECT_FALSE(fs::exists(file.string() + "-wal")) << file << " was switched to WAL";
  }
  try {
    memory_store::open(minus);
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), minus.string() + " says it is memory schema -5, which no kopt writes (this kopt knows 1 to 5): "
                                             "the file is damaged; restore it or give another --memory-db");
  }
}

// The first use of a new database by several at once, started together by a barrier so that
// they meet where SQLite refuses one at once (the switch to write-ahead logging) instead of
// letting it wait: every one opens and records (before, one in a few rounds failed with
// "database is locked").
TEST(MemoryStore, FirstOpensOfANewDatabaseAtOnceAllSucceed) {
  testing::scratch_dir dir;
  constexpr int rounds = 100;
  constexpr int at_once = 4;
  const std::vector<std::vector<std::string>> tags = {{"baseline"}, {"tiled"}, {"vectorized"}, {"unrolled"}};
  int failures = 0;
  std::string first_failure;
  for (int round = 0; round < rounds && failures == 0; ++round) {
    const fs::path file = dir.path() / std::to_string(round) / "memory.db";
    std::barrier start(at_once);
    std::mutex mutex;
    std::vector<std::thread> openers;
    for (int i = 0; i < at_once; ++i) {
      openers.emplace_back([&, i] {
        start.arrive_and_wait();
        try {
          memory_store::open(file).record(outcome_of("r", i, tags[static_cast<std::size_t>(i)], "positive"));
        } catch (const error& e) {
          const std::lock_guard<std::mutex> lock(mutex);
          if (failures++ == 0) first_failure = fmt::format("round {}: {}", round, e.headline());
        }
      });
    }
    for (auto& t : openers) t.join();
    if (failures == 0) {
      EXPECT_EQ(memory_store::open(file).all().size(), static_cast<std::size_t>(at_once));
    }
  }
  EXPECT_EQ(failures, 0) << first_failure;
}

TEST(MemoryStore, ManyOutcomesAreOneTransactionAllOrNone) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
  std::vector<recorded_outcome> batch = {outcome_of("r", 1, {"baseline"}, "positive"),
                                         outcome_of("r", 2, {"tiled"}, "negative")};
  batch.push_back(outcome_of("r", 3, {"vectorized"}, "positive"));
  batch.back().fingerprint = "0000000000000000";  // not its tags: refused
  EXPECT_THROW(store.record_all(batch), error);
  EXPECT_TRUE(store.all().empty()) << "a refused batch stored part of itself";
  batch.pop_back();
  batch.push_back(outcome_of("r", 1, {"baseline"}, "positive"));  // the same key twice: once
  const std::vector<bool> added = store.record_all(batch);
  ASSERT_EQ(added.size(), 3u);
  EXPECT_EQ(added, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(store.all().size(), 2u);
}

TEST(MemoryStore, ADatabaseChangedOutsideKoptIsNamedWhenRead) {
  testing::scratch_dir dir;
  const fs::path file = dir.path() / "memory.db";
  memory_store::open(file).record(outcome_of("r", 1, {"baseline"}, "positive"));
  run_sql(file, "UPDATE outcomes SET tags = '[[[1e999'");
  const memory_store store = memory_store::open(file);
  try {
    (void)store.all();
    FAIL() << "damaged tags were read";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("a stored outcome's tags"), std::string::npos) << e.headline();
    EXPECT_NE(e.headline().find("changed outside kopt"), std::string::npos) << e.headline();
  }
}

// A reader that must not change the memory: no file, folder or schema appears, and what a
// loop recorded is read back.
TEST(MemoryStore, AReadOnlyOpenCreatesNothingAndReadsWhatWasRecorded) {
  testing::scratch_dir dir;
  const fs::path missing = dir.path() / "none" / "memory.db";
  try {
    memory_store::open_read_only(missing);
    FAIL() << "a missing database must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("does not exist"), std::string::npos) << e.headline();
  }
  EXPECT_FALSE(fs::exists(missing.parent_path()));

  const fs::path file = dir.path() / "memory.db";
  memory_store::open(file).record(outcome_of("run-1", 1, {"vectorized_float4_io"}, "positive"));
  const memory_store reader = memory_store::open_read_only(file);
  const auto list = reader.summarize({"cuda", "", ""});
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].positive, 1);

  const fs::path foreign = dir.path() / "foreign.db";
  run_sql(foreign, "CREATE TABLE notes (x TEXT);");
  EXPECT_THROW(memory_store::open_read_only(foreign), error);
  const fs::path newer = dir.path() / "newer.db";
  run_sql(newer, "PRAGMA application_id=1802465396; PRAGMA user_version=99; CREATE TABLE future (x);");
  try {
    memory_store::open_read_only(newer);
    FAIL() << "a newer schema must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("written by a newer kopt"), std::string::npos) << e.headline();
  }
}

TEST(MemoryStore, TwoWritersAtOnceLoseNothing) {
  testing::scratch_dir dir;
  const fs::path file = dir.path() / "memory.db";
  memory_store::open(file);
  constexpr int per_writer = 150;
  const auto writer = [&](const std::string& run) {
    memory_store store = memory_store::open(file);
    for (int i = 0; i < per_writer; ++i) store.record(outcome_of(run, i, {"tag_" + std::to_string(i % 7)}, "neutral"));
  };
  std::thread a(writer, "loop-a");
  std::thread b(writer, "loop-b");
  a.join();
  b.join();
  EXPECT_EQ(memory_store::open(file).all().size(), static_cast<std::size_t>(2 * per_writer));
}

TEST(MemoryStore, TheDefaultPlaceFollowsTheFlagThenTheEnvironment) {
  EXPECT_EQ(default_memory_path(std::string("/x/m.db")), fs::path("/x/m.db"));
  ::setenv("KOPT_MEMORY_DB", "/y/m.db", 1);
  EXPECT_EQ(default_memory_path(std::nullopt), fs::path("/y/m.db"));
  ::unsetenv("KOPT_MEMORY_DB");
  ::setenv("XDG_DATA_HOME", "/data", 1);
  EXPECT_EQ(default_memory_path(std::nullopt), fs::path("/data/kopt/memory.db"));
  ::unsetenv("XDG_DATA_HOME");
}

}  // namespace
}  // namespace kopt::memory
