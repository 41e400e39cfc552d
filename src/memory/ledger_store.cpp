#include "memory/ledger_store.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/random_bytes.h"
#include "core/utc_time.h"
#include "memory/sqlite_connection.h"

namespace kopt::memory {
namespace {

constexpr std::size_t key_bytes = 32;

// 32 random bytes from the operating system, as hex (the key is stored as text).
std::string random_key_hex() {
  std::string hex;
  for (const char b : random_bytes(key_bytes, "the run ledger's key")) {
    hex += fmt::format("{:02x}", static_cast<unsigned char>(b));
  }
  return hex;
}

// The seal binds a record to its run folder and run: an entry moved to another run does not pass.
std::string seal_of(const std::string& key, const ledger_run& run, const std::string& record) {
  return hmac_sha256_hex(key, fmt::format("{}\n{}\n{}\n{}", run.run_dir, run.run_id, run.created_at, record));
}

// Whether the database has the ledger's tables (a memory older than schema 3, opened read-only,
// has not).
bool has_ledger(sqlite3* db, const fs::path& path) {
  statement query(db,
                  "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('run_ledger', 'ledger_key')",
                  path);
  return query.step() && query.integer(0) == 2;
}

std::optional<std::string> stored_key(sqlite3* db, const fs::path& path) {
  statement query(db, "SELECT key FROM ledger_key WHERE id = 1", path);
  if (!query.step() || query.text(0).size() != 2 * key_bytes) return std::nullopt;
  return query.text(0);
}

// `text` when its seal holds under `key`; nothing for an empty text; `broken` set otherwise.
std::optional<std::string> sealed_text(const std::optional<std::string>& key, const ledger_run& run,
                                       const std::string& text, const std::string& seal, bool& broken) {
  if (text.empty()) return std::nullopt;
  if (key && seal == seal_of(*key, run, text)) return text;
  broken = true;
  return std::nullopt;
}

}  // namespace

void ledger_store::stage(const ledger_run& run, const std::string& record) const {
  const sqlite_connection& c = *m_store.m_db;
  c.exec("BEGIN IMMEDIATE", "cannot lock for writing");
  try {
    statement make_key(c.db, "INSERT OR IGNORE INTO ledger_key (id, key) VALUES (1, ?)", c.path);
    make_key.bind(1, random_key_hex()).step();
    const std::optional<std::string> key = stored_key(c.db, c.path);
    if (!key) {
      throw error(fmt::format("strategy memory {}: the run ledger's key was changed outside kopt: restore the "
                              "database, or give another --memory-db",
                              c.path.string()));
    }
    statement drop(c.db, "DELETE FROM run_ledger WHERE run_dir = ? AND NOT (run_id = ? AND created_at = ?)", c.path);
    drop.bind(1, run.run_dir).bind(2, run.run_id).bind(3, run.created_at).step();
    statement put(c.db,
                  "INSERT INTO run_ledger (run_dir, run_id, created_at, record, record_seal, pending, pending_seal, "
                  "updated_at) VALUES (?, ?, ?, '', '', ?, ?, ?) ON CONFLICT (run_dir, run_id, created_at) DO UPDATE "
                  "SET pending = excluded.pending, pending_seal = excluded.pending_seal, updated_at = excluded.updated_at",
                  c.path);
    put.bind(1, run.run_dir).bind(2, run.run_id).bind(3, run.created_at).bind(4, record);
    put.bind(5, seal_of(*key, run, record)).bind(6, utc_timestamp()).step();
    c.exec("COMMIT", "cannot commit");
  } catch (...) {
    sqlite3_exec(c.db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void ledger_store::commit(const ledger_run& run) const {
  const sqlite_connection& c = *m_store.m_db;
  statement promote(c.db,
                    "UPDATE run_ledger SET record = pending, record_seal = pending_seal, pending = '', pending_seal = '', "
                    "updated_at = ? WHERE run_dir = ? AND run_id = ? AND created_at = ? AND pending != ''",
                    c.path);
  promote.bind(1, utc_timestamp()).bind(2, run.run_dir).bind(3, run.run_id).bind(4, run.created_at).step();
}

ledger_entry ledger_store::find(const ledger_run& run) const {
  const sqlite_connection& c = *m_store.m_db;
  ledger_entry entry;
  if (!has_ledger(c.db, c.path)) return entry;
  statement query(c.db,
                  "SELECT run_id, created_at, record, record_seal, pending, pending_seal FROM run_ledger "
                  "WHERE run_dir = ?",
                  c.path);
  query.bind(1, run.run_dir);
  const std::optional<std::string> key = stored_key(c.db, c.path);
  while (query.step()) {
    if (query.text(0) != run.run_id || query.text(1) != run.created_at) {
      if (entry.state == ledger_entry::found::none) entry.state = ledger_entry::found::other_run;
      continue;
    }
    entry.state = ledger_entry::found::this_run;
    entry.record = sealed_text(key, run, query.text(2), query.text(3), entry.seal_broken);
    entry.staged = sealed_text(key, run, query.text(4), query.text(5), entry.seal_broken);
    if (!entry.record && !entry.staged) entry.seal_broken = true;  // an entry with nothing in it
  }
  return entry;
}

}  // namespace kopt::memory
