// The strategy memory on a real SQLite file and on a real PostgreSQL server, the same tests for
// both: replays are no-ops, fingerprints are checked, scopes block and prefer, older schemas
// migrate, foreign and newer databases are refused untouched, many writers at once lose and
// double nothing, and a writer killed in the middle of its transaction leaves nothing of it.
#include "memory/memory_store.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <tuple>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "memory/memory_location.h"
#include "memory/strategy_fingerprint.h"
#include "test_memory.h"

namespace kopt::memory {
namespace {
namespace fs = std::filesystem;
using testing::backend;
using testing::test_memory;

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

class MemoryStore : public ::testing::TestWithParam<backend> {
 protected:
  test_memory m{GetParam()};
};

TEST_P(MemoryStore, AnOutcomeIsRecordedOnceAndAReplayChangesNothing) {
  const std::string where =
      GetParam() == backend::sqlite ? (m.folder().path() / "sub" / "memory.db").string() : m.location();
  memory_store store = memory_store::open(where);
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

TEST_P(MemoryStore, AFingerprintThatIsNotItsTagsIsRefused) {
  memory_store store = memory_store::open(m.location());
  recorded_outcome o = outcome_of("run-1", 1, {"baseline"}, "positive");
  o.fingerprint = "0000000000000000";
  EXPECT_THROW(store.record(o), error);
  o = outcome_of("run-1", 1, {"baseline"}, "better");
  EXPECT_THROW(store.record(o), error);
  EXPECT_TRUE(store.all().empty());
}

TEST_P(MemoryStore, ScopesBlockFailuresAndPreferWinsOnlyWhereTheyHappened) {
  memory_store store = memory_store::open(m.location());
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

// The last outcome of a strategy is the last recorded, also when two share a time stamp.
TEST_P(MemoryStore, OutcomesComeBackInTheOrderTheyWereRecorded) {
  memory_store store = memory_store::open(m.location());
  for (int i = 0; i < 5; ++i) {
    recorded_outcome o = outcome_of("r", i, {"tiled"}, i % 2 == 0 ? "positive" : "negative");
    o.recorded_at = "2026-12-01T00:00:00Z";
    store.record(o);
  }
  const auto history = store.history(strategy_fingerprint("cuda", {"tiled"}));
  ASSERT_EQ(history.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(history[static_cast<std::size_t>(i)].iteration, i);
  const auto summary = store.summarize({});
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].last_outcome, "positive");
  EXPECT_EQ(summary[0].positive, 3);
  EXPECT_EQ(summary[0].negative, 2);
}

TEST_P(MemoryStore, ADatabaseOfTheFirstSchemaIsMigratedWithItsOutcomes) {
  {
    // The memory as the first schema wrote it.
    auto c = m.connect();
    c->exec(c->migrations()[0], "making schema 1");
    c->exec("INSERT INTO outcomes (run_id, iteration, candidate, fingerprint, backend, tags, arch, op, op_family, dims,"
            " bottleneck, outcome, reason, evidence, recorded_at) VALUES ('old', 1, '', '40f2b8f0ca5ba355', 'cuda',"
            " '[\"baseline\"]', 'sm_90a', 'softmax', '', '', 'dram', 'neutral', 'kept', '{}', '2026-11-01T00:00:00Z')",
            "writing a schema-1 row");
    c->mark(1);
  }
  memory_store store = memory_store::open(m.location());
  EXPECT_EQ(store.schema_version(), memory_store::current_schema_version());
  ASSERT_EQ(store.history("40f2b8f0ca5ba355").size(), 1u);
  EXPECT_EQ(store.history("40f2b8f0ca5ba355")[0].reason, "kept");
  // Migration 4 changed the key: the row is its iteration's first attempt, still counted.
  EXPECT_EQ(store.history("40f2b8f0ca5ba355")[0].attempt, 1);
  EXPECT_FALSE(store.history("40f2b8f0ca5ba355")[0].superseded);
  EXPECT_EQ(store.summarize({}).size(), 1u);
  EXPECT_FALSE(store.record(outcome_of("old", 1, {"baseline"}, "neutral", {"cuda", "sm_90a", "softmax", "", "", "dram"})))
      << "the old key still holds: a replay of the first attempt changes nothing";
}

// A redone iteration: both attempts are kept under one (run, iteration), and the superseded
// one no longer blocks its strategy or counts in a summary.
TEST_P(MemoryStore, ARedoneIterationKeepsBothAttemptsAndCountsOnlyTheLast) {
  memory_store store = memory_store::open(m.location());
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

// Databases kopt must refuse: another program's tables, a newer kopt's schema, a version no kopt
// writes, kopt's mark without a version.
void make_refused_memories(test_memory& m) {
  m.connect("foreign")->exec("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');", "a foreign table");
  auto newer = m.connect("newer");
  newer->exec("CREATE TABLE future (x TEXT)", "a table of the future");
  newer->mark(99);
  auto minus = m.connect("minus5");
  minus->exec("CREATE TABLE outcomes (x TEXT)", "a table");
  minus->mark(-5);
  auto unmarked = m.connect("zero");
  unmarked->exec("CREATE TABLE outcomes (x TEXT)", "a table");
  unmarked->mark(0);
}

TEST_P(MemoryStore, AnotherProgramsDatabaseAndANewerSchemaAreRefused) {
  make_refused_memories(m);
  try {
    memory_store::open(m.location("foreign"));
    FAIL() << "a foreign database must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("is not a kopt strategy memory"), std::string::npos) << e.headline();
  }
  try {
    memory_store::open(m.location("newer"));
    FAIL() << "a newer schema must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("written by a newer kopt (memory schema 99"), std::string::npos) << e.headline();
  }
}

TEST_P(MemoryStore, ARefusedDatabaseIsOnlyReadNeverChangedOrMigrated) {
  make_refused_memories(m);
  for (const std::string name : {"foreign", "newer", "minus5", "zero"}) {
    const std::string before = m.contents(name);
    EXPECT_THROW(memory_store::open(m.location(name)), error) << name;
    EXPECT_THROW(memory_store::open_read_only(m.location(name)), error) << name;
    EXPECT_EQ(m.contents(name), before) << name << " was changed";
  }
  try {
    memory_store::open(m.location("minus5"));
    FAIL();
  } catch (const error& e) {
    const std::string what = GetParam() == backend::sqlite ? "file" : "database";
    EXPECT_EQ(e.headline(), shown_location(m.location("minus5")) +
                                " says it is memory schema -5, which no kopt writes (this kopt knows 1 to 5): the " +
                                what + " is damaged; restore it or give another --memory-db");
  }
}

// The first use of a new memory by several at once, started together by a barrier so that they
// meet where a database may refuse one at once instead of letting it wait (SQLite's switch to
// write-ahead logging; two migrations of one schema): every one opens and records.
TEST_P(MemoryStore, FirstOpensOfANewDatabaseAtOnceAllSucceed) {
  const int rounds = GetParam() == backend::sqlite ? 100 : 20;
  constexpr int at_once = 4;
  const std::vector<std::vector<std::string>> tags = {{"baseline"}, {"tiled"}, {"vectorized"}, {"unrolled"}};
  int failures = 0;
  std::string first_failure;
  for (int round = 0; round < rounds && failures == 0; ++round) {
    const std::string where = m.location(fmt::format("round{}", round));
    std::barrier start(at_once);
    std::mutex mutex;
    std::vector<std::thread> openers;
    for (int i = 0; i < at_once; ++i) {
      openers.emplace_back([&, i] {
        start.arrive_and_wait();
        try {
          memory_store::open(where).record(outcome_of("r", i, tags[static_cast<std::size_t>(i)], "positive"));
        } catch (const error& e) {
          const std::lock_guard<std::mutex> lock(mutex);
          if (failures++ == 0) first_failure = fmt::format("round {}: {}", round, e.headline());
        }
      });
    }
    for (auto& t : openers) t.join();
    if (failures == 0) {
      EXPECT_EQ(memory_store::open(where).all().size(), static_cast<std::size_t>(at_once));
    }
  }
  EXPECT_EQ(failures, 0) << first_failure;
}

TEST_P(MemoryStore, ManyOutcomesAreOneTransactionAllOrNone) {
  memory_store store = memory_store::open(m.location());
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

TEST_P(MemoryStore, ADatabaseChangedOutsideKoptIsNamedWhenRead) {
  memory_store::open(m.location()).record(outcome_of("r", 1, {"baseline"}, "positive"));
  m.connect()->exec("UPDATE outcomes SET tags = '[[[1e999'", "damaging a row");
  const memory_store store = memory_store::open(m.location());
  try {
    (void)store.all();
    FAIL() << "damaged tags were read";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("a stored outcome's tags"), std::string::npos) << e.headline();
    EXPECT_NE(e.headline().find("changed outside kopt"), std::string::npos) << e.headline();
  }
}

// A reader that must not change the memory: nothing appears, and what a loop recorded is read back.
TEST_P(MemoryStore, AReadOnlyOpenCreatesNothingAndReadsWhatWasRecorded) {
  if (GetParam() == backend::sqlite) {
    const fs::path missing = m.folder().path() / "none" / "memory.db";
    try {
      memory_store::open_read_only(missing);
      FAIL() << "a missing database must be refused";
    } catch (const error& e) {
      EXPECT_NE(e.headline().find("does not exist"), std::string::npos) << e.headline();
    }
    EXPECT_FALSE(fs::exists(missing.parent_path()));
  } else {
    const std::string before = m.contents("empty");
    try {
      memory_store::open_read_only(m.location("empty"));
      FAIL() << "an empty schema must be refused";
    } catch (const error& e) {
      EXPECT_NE(e.headline().find("is not a kopt strategy memory yet"), std::string::npos) << e.headline();
    }
    EXPECT_EQ(m.contents("empty"), before) << "a read-only open made tables";
  }
  memory_store::open(m.location()).record(outcome_of("run-1", 1, {"vectorized_float4_io"}, "positive"));
  const memory_store reader = memory_store::open_read_only(m.location());
  const auto list = reader.summarize({"cuda", "", ""});
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].positive, 1);

  make_refused_memories(m);
  EXPECT_THROW(memory_store::open_read_only(m.location("foreign")), error);
  try {
    memory_store::open_read_only(m.location("newer"));
    FAIL() << "a newer schema must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("written by a newer kopt"), std::string::npos) << e.headline();
  }
}

// Loops recording at once, each a process of its own (as loops on one machine are), with some
// outcomes recorded by all of them (a replay): every outcome is there once. The writers start
// together: each waits for the pipe's end to close.
class ManyWriters : public ::testing::TestWithParam<std::tuple<backend, int>> {};

TEST_P(ManyWriters, LoseNothingAndDoubleNothing) {
  const auto [kind, writers] = GetParam();
  test_memory m(kind);
  const std::string where = m.location();
  memory_store::open(where);
  constexpr int per_writer = 60;
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(start[1]);
      char byte = 0;
      while (::read(start[0], &byte, 1) > 0) {
      }
      try {
        memory_store store = memory_store::open(where);
        for (int i = 0; i < per_writer; ++i) {
          store.record(outcome_of(fmt::format("loop-{}", w), i, {"tag_" + std::to_string(i % 7)}, "neutral"));
          store.record(outcome_of("shared", i, {"tag_shared"}, "positive"));
        }
      } catch (const error& e) {
        std::fprintf(stderr, "writer %d: %s\n", w, e.headline().c_str());
        _exit(3);
      }
      _exit(0);
    }
    children.push_back(child);
  }
  ::close(start[0]);
  ::close(start[1]);  // go
  for (const pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed (status " << status << ")";
  }
  const auto all = memory_store::open(where).all();
  EXPECT_EQ(all.size(), static_cast<std::size_t>(writers * per_writer + per_writer));
  std::set<std::tuple<std::string, std::int64_t>> keys;
  for (const auto& o : all) keys.emplace(o.run_id, o.iteration);
  EXPECT_EQ(keys.size(), all.size()) << "an outcome was recorded twice";
}

INSTANTIATE_TEST_SUITE_P(Backends, ManyWriters,
                         ::testing::Combine(::testing::Values(backend::sqlite, backend::postgresql),
                                            ::testing::Values(2, 8)),
                         [](const auto& test) {
                           return fmt::format("{}_{}_writers", testing::backend_name(std::get<0>(test.param)),
                                              std::get<1>(test.param));
                         });

// A loop killed (SIGKILL) while its transaction is open: nothing of the transaction stays, and
// the next writer records without waiting for it.
TEST_P(MemoryStore, AWriterKilledMidTransactionLeavesNothingAndBlocksNoOne) {
  memory_store::open(m.location()).record(outcome_of("before", 1, {"baseline"}, "positive"));
  constexpr int batch_size = 100000;
  const std::string client = "kopt_killed_writer";
  const std::string where = m.location("memory", client);
  // The child says when it starts recording (its open() and its batch are behind it), so that the
  // lock seen after that is the recording's transaction.
  int recording[2];
  ASSERT_EQ(::pipe(recording), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(recording[0]);
    try {
      memory_store store = memory_store::open(where);
      std::vector<recorded_outcome> batch;
      for (int i = 0; i < batch_size; ++i) batch.push_back(outcome_of("killed", i, {"tiled"}, "negative"));
      const char go = 'r';
      if (::write(recording[1], &go, 1) != 1) _exit(4);
      store.record_all(std::move(batch));
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  ::close(recording[1]);
  char said = 0;
  const bool started = ::read(recording[0], &said, 1) == 1;
  ::close(recording[0]);
  // Killed as soon as its transaction holds the memory.
  bool seen = false;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (started && !seen && std::chrono::steady_clock::now() < give_up) {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) break;
    seen = m.writer_holds("memory", client);
  }
  ::kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(seen) << "the writer never held the memory (it ended with status " << status << ")";
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer finished before it was killed";

  const auto next_writer = std::chrono::steady_clock::now();
  memory_store store = memory_store::open(m.location());
  EXPECT_TRUE(store.record(outcome_of("after", 1, {"baseline"}, "positive")));
  EXPECT_LT(std::chrono::steady_clock::now() - next_writer, std::chrono::seconds(30)) << "the next writer waited";
  const auto all = store.all();
  ASSERT_EQ(all.size(), 2u) << "the killed transaction left rows";
  EXPECT_EQ(all[0].run_id, "before");
  EXPECT_EQ(all[1].run_id, "after");
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryStore, testing::every_backend(), testing::backend_test_name);

TEST(MemoryPlace, TheDefaultPlaceFollowsTheFlagThenTheEnvironment) {
  EXPECT_EQ(default_memory_path(std::string("/x/m.db")), fs::path("/x/m.db"));
  ::setenv("KOPT_MEMORY_DB", "/y/m.db", 1);
  EXPECT_EQ(default_memory_path(std::nullopt), fs::path("/y/m.db"));
  ::setenv("KOPT_MEMORY_DB", "postgresql://team@db.example/kopt", 1);
  EXPECT_EQ(default_memory_path(std::nullopt).string(), "postgresql://team@db.example/kopt");
  ::unsetenv("KOPT_MEMORY_DB");
  ::setenv("XDG_DATA_HOME", "/data", 1);
  EXPECT_EQ(default_memory_path(std::nullopt), fs::path("/data/kopt/memory.db"));
  ::unsetenv("XDG_DATA_HOME");
}

}  // namespace
}  // namespace kopt::memory
