// The run ledger on a real SQLite file: a record staged and committed is found with its seal
// checked; an entry rewritten with a plain digest, moved to another run, or left without its key
// does not pass; a new run in a folder drops the old run's entry; a memory older than the ledger
// has none.
#include "memory/ledger_store.h"

#include <sqlite3.h>

#include <gtest/gtest.h>

#include "core/hash.h"
#include "support/kopt_process.h"

namespace kopt::memory {
namespace {
namespace fs = std::filesystem;

const ledger_run run_a{"/runs/run_a", "run_a", "2026-12-01T10:00:00Z"};
const std::string record_1 = R"({"run_manifest.json":"aaaa"})";
const std::string record_2 = R"({"iter_v0/softmax_v0.cu":"cccc","run_manifest.json":"bbbb"})";

void run_sql(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

class LedgerStore : public ::testing::Test {
 protected:
  fs::path db() const { return m_dir.path() / "memory.db"; }
  ledger_entry find(const ledger_run& run) const {
    return ledger_store(memory_store::open_read_only(db())).find(run);
  }
  kopt::testing::scratch_dir m_dir;
};

TEST_F(LedgerStore, AStagedRecordIsFoundStagedUntilCommitted) {
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

TEST_F(LedgerStore, ARecordRewrittenWithAPlainDigestDoesNotPass) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  // What a forger who rewrote the manifest would put there: its plain SHA-256, sealed the same way.
  run_sql(db(), "UPDATE run_ledger SET record = '{\"run_manifest.json\":\"dddd\"}', record_seal = '" +
                    sha256_hex("{\"run_manifest.json\":\"dddd\"}") + "'");
  const ledger_entry e = find(run_a);
  EXPECT_TRUE(e.seal_broken);
  EXPECT_FALSE(e.record);
}

TEST_F(LedgerStore, AnEntryMovedToAnotherFolderDoesNotPass) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  run_sql(db(), "UPDATE run_ledger SET run_dir = '/runs/elsewhere'");
  const ledger_entry e = find({"/runs/elsewhere", run_a.run_id, run_a.created_at});
  EXPECT_EQ(e.state, ledger_entry::found::this_run);
  EXPECT_TRUE(e.seal_broken);
}

TEST_F(LedgerStore, WithoutItsKeyNoEntryPasses) {
  {
    memory_store store = memory_store::open(db());
    ledger_store(store).stage(run_a, record_1);
    ledger_store(store).commit(run_a);
  }
  run_sql(db(), "DELETE FROM ledger_key");
  EXPECT_TRUE(find(run_a).seal_broken);
}

TEST_F(LedgerStore, AnotherRunInTheFolderIsToldAndANewRunThereDropsTheOld) {
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

TEST_F(LedgerStore, AMemoryOlderThanTheLedgerHasNoEntryAndIsLeftAsItWas) {
  run_sql(db(),
          "CREATE TABLE outcomes (run_id TEXT NOT NULL, iteration INTEGER NOT NULL, candidate TEXT NOT NULL,"
          " fingerprint TEXT NOT NULL, backend TEXT NOT NULL, tags TEXT NOT NULL, arch TEXT NOT NULL, op TEXT NOT NULL,"
          " op_family TEXT NOT NULL, dims TEXT NOT NULL, bottleneck TEXT NOT NULL, outcome TEXT NOT NULL,"
          " reason TEXT NOT NULL, evidence TEXT NOT NULL, recorded_at TEXT NOT NULL,"
          " PRIMARY KEY (run_id, iteration, candidate));"
          "PRAGMA application_id=1802465396; PRAGMA user_version=2;");
  EXPECT_EQ(find(run_a).state, ledger_entry::found::none);
  EXPECT_EQ(memory_store::open_read_only(db()).schema_version(), 2);
}

}  // namespace
}  // namespace kopt::memory
