#include "memory/ledger_store.h"

#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/random_bytes.h"
#include "core/utc_time.h"
#include "memory/sql_connection.h"

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
bool has_ledger(sql_connection& db) { return db.has_table("run_ledger") && db.has_table("ledger_key"); }

std::optional<std::string> stored_key(sql_connection& db) {
  const auto query = db.prepare("SELECT key FROM ledger_key WHERE id = 1");
  if (!query->step() || query->text(0).size() != 2 * key_bytes) return std::nullopt;
  return query->text(0);
}

// `text` when its seal holds under `key`; nothing for an empty text; `broken` set otherwise.
std::optional<std::string> sealed_text(const std::optional<std::string>& key, const ledger_run& run,
                                       const std::string& text, const std::string& seal, bool& broken) {
  if (text.empty()) return std::nullopt;
  if (key && seal == seal_of(*key, run, text)) return text;
  broken = true;
  return std::nullopt;
}

// The memory's key, made first when it has none; inside a writing transaction.
std::string key_made_once(sql_connection& c) {
  c.prepare("INSERT INTO ledger_key (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING")->bind(1, random_key_hex()).step();
  const std::optional<std::string> key = stored_key(c);
  if (!key) {
    throw error(fmt::format("strategy memory {}: the run ledger's key was changed outside kopt: restore the "
                            "database, or give another --memory-db",
                            c.shown_name()));
  }
  return *key;
}

}  // namespace

void ledger_store::stage(const ledger_run& run, const std::string& record) const {
  sql_connection& c = *m_store.m_db;
  in_write_transaction(c, [&] {
    const std::string key = key_made_once(c);
    c.prepare("DELETE FROM run_ledger WHERE run_dir = ?1 AND NOT (run_id = ?2 AND created_at = ?3)")
        ->bind(1, run.run_dir)
        .bind(2, run.run_id)
        .bind(3, run.created_at)
        .step();
    const auto put = c.prepare(
        "INSERT INTO run_ledger (run_dir, run_id, created_at, record, record_seal, pending, pending_seal, updated_at) "
        "VALUES (?, ?, ?, '', '', ?, ?, ?) ON CONFLICT (run_dir, run_id, created_at) DO UPDATE "
        "SET pending = excluded.pending, pending_seal = excluded.pending_seal, updated_at = excluded.updated_at");
    put->bind(1, run.run_dir).bind(2, run.run_id).bind(3, run.created_at).bind(4, record);
    put->bind(5, seal_of(key, run, record)).bind(6, utc_timestamp()).step();
  });
}

void ledger_store::commit(const ledger_run& run) const {
  const auto promote = m_store.m_db->prepare(
      "UPDATE run_ledger SET record = pending, record_seal = pending_seal, pending = '', pending_seal = '', "
      "updated_at = ? WHERE run_dir = ? AND run_id = ? AND created_at = ? AND pending != ''");
  promote->bind(1, utc_timestamp()).bind(2, run.run_dir).bind(3, run.run_id).bind(4, run.created_at).step();
}

ledger_copy ledger_store::copy_to(const ledger_store& to) const {
  sql_connection& from = *m_store.m_db;
  ledger_copy counts;
  if (!has_ledger(from)) return counts;
  const std::optional<std::string> key = stored_key(from);
  struct sealed_entry {
    ledger_run run;
    std::string record, pending, updated_at;
  };
  std::vector<sealed_entry> entries;
  const auto query = from.prepare(
      "SELECT run_dir, run_id, created_at, record, record_seal, pending, pending_seal, updated_at FROM run_ledger "
      "ORDER BY run_dir, run_id, created_at");
  while (query->step()) {
    sealed_entry e{{query->text(0), query->text(1), query->text(2)}, query->text(3), query->text(5), query->text(7)};
    bool broken = false;
    sealed_text(key, e.run, e.record, query->text(4), broken);
    sealed_text(key, e.run, e.pending, query->text(6), broken);
    if (broken || (e.record.empty() && e.pending.empty())) {
      ++counts.seal_broken;
    } else {
      entries.push_back(std::move(e));
    }
  }
  sql_connection& into = *to.m_store.m_db;
  in_write_transaction(into, [&] {
    const std::string there = key_made_once(into);
    const auto put = into.prepare(
        "INSERT INTO run_ledger (run_dir, run_id, created_at, record, record_seal, pending, pending_seal, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    for (const sealed_entry& e : entries) {
      put->bind(1, e.run.run_dir).bind(2, e.run.run_id).bind(3, e.run.created_at);
      put->bind(4, e.record).bind(5, e.record.empty() ? "" : seal_of(there, e.run, e.record));
      put->bind(6, e.pending).bind(7, e.pending.empty() ? "" : seal_of(there, e.run, e.pending)).bind(8, e.updated_at);
      put->step();
      ++(put->changes() > 0 ? counts.copied : counts.already_there);
      put->reset();
    }
  });
  return counts;
}

ledger_entry ledger_store::find(const ledger_run& run) const {
  sql_connection& c = *m_store.m_db;
  ledger_entry entry;
  if (!has_ledger(c)) return entry;
  const auto query = c.prepare(
      "SELECT run_id, created_at, record, record_seal, pending, pending_seal FROM run_ledger WHERE run_dir = ?");
  query->bind(1, run.run_dir);
  const std::optional<std::string> key = stored_key(c);
  while (query->step()) {
    if (query->text(0) != run.run_id || query->text(1) != run.created_at) {
      if (entry.state == ledger_entry::found::none) entry.state = ledger_entry::found::other_run;
      continue;
    }
    entry.state = ledger_entry::found::this_run;
    entry.record = sealed_text(key, run, query->text(2), query->text(3), entry.seal_broken);
    entry.staged = sealed_text(key, run, query->text(4), query->text(5), entry.seal_broken);
    if (!entry.record && !entry.staged) entry.seal_broken = true;  // an entry with nothing in it
  }
  return entry;
}

}  // namespace kopt::memory
