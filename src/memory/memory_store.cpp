#include "memory/memory_store.h"

#include <sqlite3.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "core/document.h"
#include "core/error.h"
#include "core/json_limits.h"
#include "core/utc_time.h"
#include "measure/outcome.h"
#include "memory/sqlite_connection.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::memory {
namespace fs = std::filesystem;
namespace {

// "kopt" in ASCII: marks the file as kopt's, so another program's SQLite file is refused.
constexpr int application_id = 0x6b6f7074;

// Ordered; migration i takes the schema from version i to i + 1. Never edit one that shipped:
// add the next.
constexpr std::array<const char*, 5> migrations = {
    // 1: every outcome, keyed by (run, iteration, candidate).
    "CREATE TABLE outcomes ("
    "  run_id TEXT NOT NULL, iteration INTEGER NOT NULL, candidate TEXT NOT NULL,"
    "  fingerprint TEXT NOT NULL, backend TEXT NOT NULL, tags TEXT NOT NULL,"
    "  arch TEXT NOT NULL, op TEXT NOT NULL, op_family TEXT NOT NULL, dims TEXT NOT NULL, bottleneck TEXT NOT NULL,"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('positive','negative','neutral','inconclusive','rejected')),"
    "  reason TEXT NOT NULL, evidence TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    "  PRIMARY KEY (run_id, iteration, candidate));"
    "CREATE INDEX outcomes_by_fingerprint ON outcomes (fingerprint);"
    "CREATE INDEX outcomes_by_scope ON outcomes (backend, arch, op, dims);",
    // 2: the query "what worked for this bottleneck on this backend" without a scan.
    "CREATE INDEX outcomes_by_bottleneck ON outcomes (backend, bottleneck, arch);",
    // 3: the ledger of run folders (ledger_store.h) and the key that seals its entries.
    "CREATE TABLE run_ledger ("
    "  run_dir TEXT NOT NULL, run_id TEXT NOT NULL, created_at TEXT NOT NULL,"
    "  record TEXT NOT NULL, record_seal TEXT NOT NULL, pending TEXT NOT NULL, pending_seal TEXT NOT NULL,"
    "  updated_at TEXT NOT NULL,"
    "  PRIMARY KEY (run_dir, run_id, created_at));"
    "CREATE TABLE ledger_key (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);",
    // 4: a redone iteration keeps its earlier attempts: the key gains the attempt, and an attempt
    // redone is marked superseded. SQLite cannot change a primary key in place: the table is
    // rebuilt, its rows and indexes carried over (attempt 1, none superseded).
    "CREATE TABLE outcomes_v4 ("
    "  run_id TEXT NOT NULL, iteration INTEGER NOT NULL, attempt INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),"
    "  candidate TEXT NOT NULL, fingerprint TEXT NOT NULL, backend TEXT NOT NULL, tags TEXT NOT NULL,"
    "  arch TEXT NOT NULL, op TEXT NOT NULL, op_family TEXT NOT NULL, dims TEXT NOT NULL, bottleneck TEXT NOT NULL,"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('positive','negative','neutral','inconclusive','rejected')),"
    "  reason TEXT NOT NULL, evidence TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    "  superseded INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),"
    "  PRIMARY KEY (run_id, iteration, attempt, candidate));"
    "INSERT INTO outcomes_v4 (run_id, iteration, candidate, fingerprint, backend, tags, arch, op, op_family, dims,"
    "  bottleneck, outcome, reason, evidence, recorded_at)"
    "  SELECT run_id, iteration, candidate, fingerprint, backend, tags, arch, op, op_family, dims, bottleneck,"
    "  outcome, reason, evidence, recorded_at FROM outcomes ORDER BY rowid;"
    "DROP TABLE outcomes;"
    "ALTER TABLE outcomes_v4 RENAME TO outcomes;"
    "CREATE INDEX outcomes_by_fingerprint ON outcomes (fingerprint);"
    "CREATE INDEX outcomes_by_scope ON outcomes (backend, arch, op, dims);"
    "CREATE INDEX outcomes_by_bottleneck ON outcomes (backend, bottleneck, arch);",
    // 5: files kopt offered for import (the Python toolkit's memory found beside a kernel), by
    // content: each is offered once.
    "CREATE TABLE offered_files (content_sha256 TEXT PRIMARY KEY, path TEXT NOT NULL, offered_at TEXT NOT NULL);",
};

constexpr const char* outcome_columns =
    "run_id, iteration, candidate, fingerprint, backend, tags, arch, op, op_family, dims, bottleneck, outcome, "
    "reason, evidence, recorded_at, attempt, superseded";

// A JSON column as kopt stored it; a database changed behind kopt's back is named, not a crash.
template <typename T>
T stored(const std::string& text, const fs::path& path, const char* column) {
  try {
    return from_document<T>(parse_json_checked(text));
  } catch (const document_error& e) {
    throw e.in(fmt::format("strategy memory {}: a stored {}", path.string(), column),
               "the database was changed outside kopt; restore it or give another --memory-db");
  }
}

recorded_outcome outcome_of_row(const statement& row, const fs::path& path) {
  recorded_outcome o;
  o.run_id = row.text(0);
  o.iteration = row.integer(1);
  o.candidate = row.text(2);
  o.fingerprint = row.text(3);
  o.scope.backend = row.text(4);
  o.tags = stored<std::vector<std::string>>(row.text(5), path, "outcome's tags");
  o.scope.arch = row.text(6);
  o.scope.op = row.text(7);
  o.scope.op_family = row.text(8);
  o.scope.dims = row.text(9);
  o.scope.bottleneck = row.text(10);
  o.outcome = row.text(11);
  o.reason = row.text(12);
  o.evidence = stored<json>(row.text(13), path, "outcome's evidence");
  o.recorded_at = row.text(14);
  o.attempt = row.integer(15);
  o.superseded = row.integer(16) != 0;
  return o;
}

std::int64_t read_pragma(sqlite3* db, const char* name, const fs::path& path) {
  statement query(db, fmt::format("PRAGMA {}", name).c_str(), path);
  return query.step() ? query.integer(0) : 0;
}

// What a database says it is, read without writing anything.
struct database_identity {
  std::int64_t application = 0;
  std::int64_t version = 0;
  std::int64_t tables = 0;
};

// One statement, so one snapshot: read in three, another process's migration could land between
// them and show a half-made identity.
database_identity read_identity(sqlite3* db, const fs::path& path) {
  statement query(db,
                  "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM "
                  "pragma_user_version), (SELECT count(*) FROM sqlite_master)",
                  path);
  database_identity id;
  if (query.step()) id = {query.integer(0), query.integer(1), query.integer(2)};
  return id;
}

// The schema version of a kopt memory (0 for a new, empty database kopt will make one of).
// Throws kopt::error naming the file for another program's file, a newer kopt's, or a version
// no kopt writes (a negative one, say): kopt has no migration from there.
int check_is_kopt_memory(const database_identity& id, const fs::path& path) {
  if (id.application == 0 && id.tables == 0 && id.version == 0) return 0;
  if (id.application != application_id) {
    throw error(fmt::format("{} is not a kopt strategy memory (another program's SQLite file?): give another "
                            "--memory-db",
                            path.string()));
  }
  if (id.version > memory_store::current_schema_version()) {
    throw error(fmt::format("{} was written by a newer kopt (memory schema {}, this kopt reads up to {}): use that "
                            "kopt or another --memory-db",
                            path.string(), id.version, memory_store::current_schema_version()));
  }
  if (id.version < 1) {
    throw error(fmt::format("{} says it is memory schema {}, which no kopt writes (this kopt knows 1 to {}): the "
                            "file is damaged; restore it or give another --memory-db",
                            path.string(), id.version, memory_store::current_schema_version()));
  }
  return static_cast<int>(id.version);
}

}  // namespace

memory_store::memory_store(fs::path path, std::unique_ptr<sqlite_connection> db) : m_path(std::move(path)), m_db(std::move(db)) {}
memory_store::~memory_store() = default;
memory_store::memory_store(memory_store&&) noexcept = default;
memory_store& memory_store::operator=(memory_store&&) noexcept = default;

int memory_store::current_schema_version() { return static_cast<int>(migrations.size()); }

memory_store memory_store::open(const fs::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  auto c = std::make_unique<sqlite_connection>();
  c->path = path;
  if (sqlite3_open_v2(path.c_str(), &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    c->fail("cannot open (check the path and its permissions; --memory-db chooses another)");
  }
  // Another loop may be writing: wait for it rather than fail.
  sqlite3_busy_timeout(c->db, 60000);
  // Read before anything is written: a file kopt refuses is left exactly as it was.
  check_is_kopt_memory(read_identity(c->db, path), path);
  // Of two processes switching a new database to WAL at once, SQLite fails one at once rather
  // than have both wait for the other: the failed one tries again.
  c->exec_waiting("PRAGMA journal_mode=WAL", "cannot use write-ahead logging");
  c->exec("PRAGMA synchronous=NORMAL", "setting durability");
  c->exec("BEGIN IMMEDIATE", "cannot lock for migration");
  try {
    // Again under the lock: another process may have created or migrated it meanwhile.
    const int version = check_is_kopt_memory(read_identity(c->db, path), path);
    if (version < current_schema_version()) {
      for (int v = version; v < current_schema_version(); ++v) c->exec(migrations[static_cast<std::size_t>(v)], "migrating");
      c->exec(fmt::format("PRAGMA application_id={}", application_id).c_str(), "marking the file");
      c->exec(fmt::format("PRAGMA user_version={}", current_schema_version()).c_str(), "recording the schema version");
    }
    c->exec("COMMIT", "finishing the migration");
  } catch (...) {
    sqlite3_exec(c->db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return memory_store(path, std::move(c));
}

memory_store memory_store::open_read_only(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw error(fmt::format("strategy memory {} does not exist (a loop creates it; --memory-db names another)",
                            path.string()));
  }
  auto c = std::make_unique<sqlite_connection>();
  c->path = path;
  if (sqlite3_open_v2(path.c_str(), &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    c->fail("cannot open for reading (check its permissions)");
  }
  // A loop may be writing: wait for it rather than fail.
  sqlite3_busy_timeout(c->db, 60000);
  // Older schemas differ by indexes, on which every query still works, and by the run ledger's
  // tables, which its reader finds missing (ledger_store.h); a new, empty database has nothing
  // to read and no tables to read it from.
  if (check_is_kopt_memory(read_identity(c->db, path), path) == 0) {
    throw error(fmt::format("{} is not a kopt strategy memory yet (an empty database): give the --memory-db a loop "
                            "wrote",
                            path.string()));
  }
  return memory_store(path, std::move(c));
}

int memory_store::schema_version() const { return static_cast<int>(read_pragma(m_db->db, "user_version", m_path)); }

namespace {

// An outcome as it is stored: normalized tags, its fingerprint checked, a known outcome, a time.
void prepare(recorded_outcome& o) {
  o.tags = normalize_tags(o.tags);
  const std::string expected = strategy_fingerprint(o.scope.backend, o.tags);
  if (o.fingerprint.empty()) o.fingerprint = expected;
  if (o.fingerprint != expected) {
    throw error(fmt::format("strategy {} does not match its tags ({} for backend {})", o.fingerprint, expected,
                            o.scope.backend));
  }
  measure::parse_outcome(o.outcome);
  if (o.recorded_at.empty()) o.recorded_at = utc_timestamp();
}

}  // namespace

bool memory_store::record(recorded_outcome outcome) {
  std::vector<recorded_outcome> one;
  one.push_back(std::move(outcome));
  return record_all(std::move(one)).front();
}

std::vector<bool> memory_store::record_all(std::vector<recorded_outcome> outcomes) {
  for (recorded_outcome& o : outcomes) prepare(o);  // all checked before anything is written
  std::vector<bool> added;
  m_db->exec("BEGIN IMMEDIATE", "cannot lock for writing");
  try {
    statement insert(m_db->db,
                     fmt::format("INSERT OR IGNORE INTO outcomes ({}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 outcome_columns)
                         .c_str(),
                     m_path);
    for (const recorded_outcome& o : outcomes) {
      insert.bind(1, o.run_id).bind(2, o.iteration).bind(3, o.candidate).bind(4, o.fingerprint);
      insert.bind(5, o.scope.backend).bind(6, json_text(json(o.tags), -1)).bind(7, o.scope.arch).bind(8, o.scope.op);
      insert.bind(9, o.scope.op_family).bind(10, o.scope.dims).bind(11, o.scope.bottleneck).bind(12, o.outcome);
      insert.bind(13, o.reason).bind(14, json_text(o.evidence, -1)).bind(15, o.recorded_at);
      insert.bind(16, o.attempt).bind(17, static_cast<std::int64_t>(o.superseded ? 1 : 0));
      insert.step();
      added.push_back(sqlite3_changes(m_db->db) > 0);
      insert.reset();
    }
    m_db->exec("COMMIT", "cannot commit");
  } catch (...) {
    sqlite3_exec(m_db->db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return added;
}

bool memory_store::offer_once(const std::string& content_sha256, const std::string& path) {
  statement insert(m_db->db, "INSERT OR IGNORE INTO offered_files (content_sha256, path, offered_at) VALUES (?, ?, ?)",
                   m_path);
  insert.bind(1, content_sha256).bind(2, path).bind(3, utc_timestamp());
  insert.step();
  return sqlite3_changes(m_db->db) > 0;
}

void memory_store::supersede(const std::string& run_id, std::int64_t iteration, std::int64_t attempt) {
  statement update(m_db->db, "UPDATE outcomes SET superseded = 1 WHERE run_id = ? AND iteration = ? AND attempt = ?",
                   m_path);
  update.bind(1, run_id).bind(2, iteration).bind(3, attempt);
  update.step();
}

namespace {

// Rows of (fingerprint, backend, tags, outcome, recorded_at), ordered by fingerprint, summed up.
std::vector<strategy_summary> summaries_of(statement& query, const std::filesystem::path& path, bool unplaced) {
  std::vector<strategy_summary> summaries;
  while (query.step()) {
    if (summaries.empty() || summaries.back().fingerprint != query.text(0)) {
      strategy_summary s;
      s.fingerprint = query.text(0);
      s.backend = query.text(1);
      s.tags = stored<std::vector<std::string>>(query.text(2), path, "outcome's tags");
      s.unplaced = unplaced;
      summaries.push_back(std::move(s));
    }
    strategy_summary& s = summaries.back();
    switch (measure::parse_outcome(query.text(3))) {
      case measure::outcome::positive: ++s.positive; break;
      case measure::outcome::negative: ++s.negative; break;
      case measure::outcome::neutral: ++s.neutral; break;
      case measure::outcome::inconclusive: ++s.inconclusive; break;
      case measure::outcome::rejected: ++s.rejected; break;
    }
    s.last_outcome = query.text(3);
    s.last_recorded_at = query.text(4);
  }
  return summaries;
}

// The summaries of the outcomes in force on the filter's backend (any when empty) that meet
// `placement`, a condition on the filter's bottleneck (?2) and architecture (?3).
std::vector<strategy_summary> summaries_where(sqlite3* db, const std::filesystem::path& path,
                                              const summary_filter& filter, std::string_view placement,
                                              bool unplaced) {
  statement query(db,
                  fmt::format("SELECT fingerprint, backend, tags, outcome, recorded_at FROM outcomes "
                              "WHERE superseded = 0 AND (?1 = '' OR backend = ?1) AND {} "
                              "ORDER BY fingerprint, recorded_at, rowid",
                              placement)
                      .c_str(),
                  path);
  query.bind(1, filter.backend).bind(2, filter.bottleneck).bind(3, filter.arch);
  return summaries_of(query, path, unplaced);
}

}  // namespace

std::vector<strategy_summary> memory_store::summarize(const summary_filter& filter) const {
  return summaries_where(m_db->db, m_path, filter, "(?2 = '' OR bottleneck = ?2) AND (?3 = '' OR arch = ?3)", false);
}

std::vector<strategy_summary> memory_store::summarize_unplaced(const summary_filter& filter) const {
  return summaries_where(m_db->db, m_path, filter,
                         "(?2 = '' OR bottleneck = ?2 OR bottleneck = '') AND (?3 = '' OR arch = ?3 OR arch = '') "
                         "AND ((?2 <> '' AND bottleneck = '') OR (?3 <> '' AND arch = ''))",
                         true);
}

std::vector<recorded_outcome> memory_store::history(const std::string& fingerprint) const {
  statement query(m_db->db,
                  fmt::format("SELECT {} FROM outcomes WHERE fingerprint = ? ORDER BY recorded_at, rowid", outcome_columns)
                      .c_str(),
                  m_path);
  query.bind(1, fingerprint);
  std::vector<recorded_outcome> list;
  while (query.step()) list.push_back(outcome_of_row(query, m_path));
  return list;
}

std::vector<recorded_outcome> memory_store::all() const {
  statement query(m_db->db,
                  fmt::format("SELECT {} FROM outcomes ORDER BY recorded_at, rowid", outcome_columns).c_str(), m_path);
  std::vector<recorded_outcome> list;
  while (query.step()) list.push_back(outcome_of_row(query, m_path));
  return list;
}

namespace {

std::vector<std::string> fingerprints_in_scope(sqlite3* db, const fs::path& path, const memory_scope& scope,
                                               const char* outcomes) {
  statement query(db,
                  fmt::format("SELECT DISTINCT fingerprint FROM outcomes WHERE backend = ? AND arch = ? AND op = ? "
                              "AND dims = ? AND superseded = 0 AND outcome IN ({}) ORDER BY fingerprint",
                              outcomes)
                      .c_str(),
                  path);
  query.bind(1, scope.backend).bind(2, scope.arch).bind(3, scope.op).bind(4, scope.dims);
  std::vector<std::string> list;
  while (query.step()) list.push_back(query.text(0));
  return list;
}

}  // namespace

std::vector<std::string> memory_store::blocked(const memory_scope& scope) const {
  return fingerprints_in_scope(m_db->db, m_path, scope, "'negative', 'rejected'");
}

std::vector<std::string> memory_store::preferred(const memory_scope& scope) const {
  return fingerprints_in_scope(m_db->db, m_path, scope, "'positive'");
}

fs::path default_memory_path(const std::optional<std::string>& flag) {
  if (flag && !flag->empty()) return *flag;
  if (const char* env = std::getenv("KOPT_MEMORY_DB"); env != nullptr && *env != '\0') return env;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data != nullptr && *data != '\0') {
    return fs::path(data) / "kopt" / "memory.db";
  }
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw error("no place for the strategy memory: HOME is not set; give --memory-db PATH or set KOPT_MEMORY_DB");
  }
  return fs::path(home) / ".local" / "share" / "kopt" / "memory.db";
}

}  // namespace kopt::memory
