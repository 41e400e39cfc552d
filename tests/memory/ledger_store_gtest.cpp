// The run ledger on a real SQLite file and a real PostgreSQL server: a record staged and committed is found with its seal
// checked; an entry rewritten with a plain digest, moved to another run, or left without its key
// does not pass; a new run in a folder drops the old run's entry; a memory older than the ledger
// has none.
#include "memory/ledger_store.h"

#include <gtest/gtest.h>

#include "core/hash.h"
#include "test_memory.h"

namespace kopt::memory {
namespace {

const ledger_run run_a{"/runs/run_a", "run_a", "2026-12-01T10:00:00Z"};
const std::string record_1 = R"({"run_manifest.json":"aaaa"})";
const std::string record_2 = R"({"iter_v0/softmax_v0.cu":"cccc","run_manifest.json":"bbbb"})";

class LedgerStore : public ::testing::TestWithParam<testing::backend> {
 protected:
  std::string db() { return m_memory.location(); }
  void run_sql(const std::string& sql) { m_memory.connect()->exec(sql, "changing the ledger behind kopt's back"); }
  ledger_entry find(const ledger_run& run) { return ledger_store(memory_store::open_read_only(db())).find(run); }
  testing::test_memory m_memory{GetParam()};
};

TEST_P(LedgerStore, AStagedRecordIsFoundStagedUntilCommitted) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
  }
  ledger_entry e = find(run_a);
  ASSERT_EQ(e.state, ledger_entry::found::this_run);
  EXPECT_FALSE(e.seal_broken);
  EXPECT_FALSE(e.record);
  EXPECT_EQ(e.staged, record_1);
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).commit(run_a);
    ledger_store(store).stage(run_a, record_2);
  }
  e = find(run_a);
  EXPECT_EQ(e.record, record_1);
  EXPECT_EQ(e.staged, record_2);
  EXPECT_FALSE(e.seal_broken);
}

TEST_P(LedgerStore, ARecordRewrittenWithAPlainDigestDoesNotPass) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  // What a forger who rewrote the manifest would put there: its plain SHA-256, sealed the same way.
  run_sql("UPDATE run_ledger SET record = '{\"run_manifest.json\":\"dddd\"}', record_seal = '" +
                    sha256_hex("{\"run_manifest.json\":\"dddd\"}") + "'");
  const ledger_entry e = find(run_a);
  EXPECT_TRUE(e.seal_broken);
  EXPECT_FALSE(e.record);
}

TEST_P(LedgerStore, AnEntryMovedToAnotherFolderDoesNotPass) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  run_sql("UPDATE run_ledger SET run_dir = '/runs/elsewhere'");
  const ledger_entry e = find({"/runs/elsewhere", run_a.run_id, run_a.created_at});
  EXPECT_EQ(e.state, ledger_entry::found::this_run);
  EXPECT_TRUE(e.seal_broken);
}

TEST_P(LedgerStore, WithoutItsKeyNoEntryPasses) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  run_sql("DELETE FROM ledger_key");
  EXPECT_TRUE(find(run_a).seal_broken);
}

TEST_P(LedgerStore, AnotherRunInTheFolderIsToldAndANewRunThereDropsTheOld) {
  const ledger_run run_b{run_a.run_dir, "run_a", "2026-12-02T08:00:00Z"};  // the folder made again
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  EXPECT_EQ(find(run_b).state, ledger_entry::found::other_run);
  EXPECT_EQ(find({"/runs/other", "x", "y"}).state, ledger_entry::found::none);
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_b, record_2);
  }
  EXPECT_EQ(find(run_a).state, ledger_entry::found::other_run);
  EXPECT_EQ(find(run_b).staged, record_2);
}

TEST_P(LedgerStore, AMemoryOlderThanTheLedgerHasNoEntryAndIsLeftAsItWas) {
  {
    auto c = m_memory.connect();
    c->exec(c->migrations()[0], "schema 1");
    c->exec(c->migrations()[1], "schema 2");
    c->mark(2);
  }
  const std::string before = m_memory.contents();
  EXPECT_EQ(find(run_a).state, ledger_entry::found::none);
  EXPECT_EQ(memory_store::open_read_only(db()).schema_version(), 2);
  EXPECT_EQ(m_memory.contents(), before);
}

INSTANTIATE_TEST_SUITE_P(Backends, LedgerStore, testing::every_backend(), testing::backend_test_name);

}  // namespace
}  // namespace kopt::memory
