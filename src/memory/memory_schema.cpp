#include "memory/memory_schema.h"

#include <array>

namespace kopt::memory {
namespace {

// Never edit a migration that shipped: add the next, to both lists.
constexpr std::array<const char*, 5> sqlite_list = {
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

// The same schema on a PostgreSQL server. Text compares byte by byte (COLLATE "C"), as SQLite's
// does, so that lists come back in the same order from both; `seq` keeps insertion order where
// SQLite has its rowid; the table rebuild SQLite needs for migration 4 is an ALTER here.
constexpr std::array<const char*, 5> postgresql_list = {
    // 1
    "CREATE TABLE outcomes ("
    "  run_id TEXT COLLATE \"C\" NOT NULL, iteration BIGINT NOT NULL, candidate TEXT COLLATE \"C\" NOT NULL,"
    "  fingerprint TEXT COLLATE \"C\" NOT NULL, backend TEXT COLLATE \"C\" NOT NULL, tags TEXT NOT NULL,"
    "  arch TEXT COLLATE \"C\" NOT NULL, op TEXT COLLATE \"C\" NOT NULL, op_family TEXT COLLATE \"C\" NOT NULL,"
    "  dims TEXT COLLATE \"C\" NOT NULL, bottleneck TEXT COLLATE \"C\" NOT NULL,"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('positive','negative','neutral','inconclusive','rejected')),"
    "  reason TEXT NOT NULL, evidence TEXT NOT NULL, recorded_at TEXT COLLATE \"C\" NOT NULL,"
    "  seq BIGINT GENERATED ALWAYS AS IDENTITY,"
    "  PRIMARY KEY (run_id, iteration, candidate));"
    "CREATE INDEX outcomes_by_fingerprint ON outcomes (fingerprint);"
    "CREATE INDEX outcomes_by_scope ON outcomes (backend, arch, op, dims);",
    // 2
    "CREATE INDEX outcomes_by_bottleneck ON outcomes (backend, bottleneck, arch);",
    // 3
    "CREATE TABLE run_ledger ("
    "  run_dir TEXT COLLATE \"C\" NOT NULL, run_id TEXT COLLATE \"C\" NOT NULL, created_at TEXT COLLATE \"C\" NOT NULL,"
    "  record TEXT NOT NULL, record_seal TEXT NOT NULL, pending TEXT NOT NULL, pending_seal TEXT NOT NULL,"
    "  updated_at TEXT NOT NULL,"
    "  PRIMARY KEY (run_dir, run_id, created_at));"
    "CREATE TABLE ledger_key (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);",
    // 4
    "ALTER TABLE outcomes ADD COLUMN attempt BIGINT NOT NULL DEFAULT 1 CHECK (attempt >= 1),"
    "  ADD COLUMN superseded INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1));"
    "ALTER TABLE outcomes DROP CONSTRAINT outcomes_pkey;"
    "ALTER TABLE outcomes ADD PRIMARY KEY (run_id, iteration, attempt, candidate);",
    // 5
    "CREATE TABLE offered_files (content_sha256 TEXT COLLATE \"C\" PRIMARY KEY, path TEXT NOT NULL,"
    "  offered_at TEXT NOT NULL);",
};
static_assert(sqlite_list.size() == postgresql_list.size(), "a schema version exists in both databases");

}  // namespace

std::span<const char* const> sqlite_migrations() { return sqlite_list; }
std::span<const char* const> postgresql_migrations() { return postgresql_list; }

}  // namespace kopt::memory
