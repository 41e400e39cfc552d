#include "memory/sqlite_connection.h"

#include <sqlite3.h>

#include <chrono>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "memory/memory_schema.h"

namespace kopt::memory {
namespace {

namespace fs = std::filesystem;

// SQLite's own message after what kopt was doing, with the file.
[[noreturn]] void fail_on(sqlite3* db, const std::string& name, const std::string& what) {
  throw error(fmt::format("strategy memory {}: {}: {}", name, what, sqlite3_errmsg(db)));
}

class sqlite_statement final : public sql_statement {
 public:
  sqlite_statement(sqlite3* db, const std::string& sql, const std::string& name) : m_db(db), m_name(name) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &m_statement, nullptr) != SQLITE_OK) fail_on(m_db, m_name, "preparing a query");
  }
  ~sqlite_statement() override { sqlite3_finalize(m_statement); }
  sqlite_statement(const sqlite_statement&) = delete;
  sqlite_statement& operator=(const sqlite_statement&) = delete;

  sql_statement& bind(int i, const std::string& text) override {
    sqlite3_bind_text(m_statement, i, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  sql_statement& bind(int i, std::int64_t value) override {
    sqlite3_bind_int64(m_statement, i, value);
    return *this;
  }
  bool step() override {
    const int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) {
      m_changes = sqlite3_changes(m_db);
      return false;
    }
    fail_on(m_db, m_name, "reading or writing");
  }
  std::string text(int column) const override {
    const unsigned char* value = sqlite3_column_text(m_statement, column);
    return value == nullptr ? "" : reinterpret_cast<const char*>(value);
  }
  std::int64_t integer(int column) const override { return sqlite3_column_int64(m_statement, column); }
  std::int64_t changes() const override { return m_changes; }
  void reset() override {
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
    m_changes = 0;
  }

 private:
  sqlite3* m_db;
  const std::string& m_name;
  sqlite3_stmt* m_statement = nullptr;
  std::int64_t m_changes = 0;
};

class sqlite_connection final : public sql_connection {
 public:
  sqlite_connection(const fs::path& path, bool read_only) : m_name(path.string()) {
    const int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
      // The handle SQLite makes even when it fails goes with the message taken from it.
      const error failure(fmt::format("strategy memory {}: {}: {}", m_name,
                                      read_only ? "cannot open for reading (check its permissions)"
                                                : "cannot open (check the path and its permissions; --memory-db "
                                                  "chooses another)",
                                      sqlite3_errmsg(m_db)));
      sqlite3_close_v2(m_db);
      throw failure;
    }
    // Another loop may be writing: wait for it rather than fail.
    sqlite3_busy_timeout(m_db, 60000);
  }
  ~sqlite_connection() override { sqlite3_close_v2(m_db); }
  sqlite_connection(const sqlite_connection&) = delete;
  sqlite_connection& operator=(const sqlite_connection&) = delete;

  const std::string& shown_name() const override { return m_name; }
  std::unique_ptr<sql_statement> prepare(const std::string& sql) override {
    return std::make_unique<sqlite_statement>(m_db, sql, m_name);
  }
  void prepare_for_writers() override {
    // Of two processes switching a new database to WAL at once, SQLite fails one at once rather
    // than have both wait for the other: the failed one tries again.
    exec_waiting("PRAGMA journal_mode=WAL", "cannot use write-ahead logging");
    exec("PRAGMA synchronous=NORMAL", "setting durability");
  }
  void exec(const std::string& sql, const char* what) override {
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(what);
  }
  void begin_writing() override { exec("BEGIN IMMEDIATE", "cannot lock for writing"); }
  void commit() override { exec("COMMIT", "cannot commit"); }
  void rollback() noexcept override { sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr); }

  // One statement, so one snapshot: read in three, another process's migration could land
  // between them and show a half-made identity.
  schema_identity identity() override {
    sqlite_statement query(m_db,
                           "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM "
                           "pragma_user_version), (SELECT count(*) FROM sqlite_master)",
                           m_name);
    schema_identity id;
    if (query.step()) id = {query.integer(0), query.integer(1), query.integer(2)};
    return id;
  }
  void mark(int version) override {
    exec(fmt::format("PRAGMA application_id={}", memory_application_id), "marking the file");
    exec(fmt::format("PRAGMA user_version={}", version), "recording the schema version");
  }
  bool has_table(const std::string& name) override {
    sqlite_statement query(m_db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", m_name);
    query.bind(1, name);
    return query.step() && query.integer(0) == 1;
  }
  const char* insertion_order() const override { return "rowid"; }
  std::span<const char* const> migrations() const override { return sqlite_migrations(); }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_on(m_db, m_name, what); }

  // For a statement SQLite refuses at once while another connection holds the database (rather
  // than wait on its busy handler, which could deadlock the two): tried again for as long as
  // the busy timeout would have waited.
  void exec_waiting(const char* sql, const char* what) const {
    using clock = std::chrono::steady_clock;
    const auto give_up = clock::now() + std::chrono::seconds(60);
    while (true) {
      const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) fail(what);
      if (clock::now() > give_up) fail(what);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  std::string m_name;
  sqlite3* m_db = nullptr;
};

}  // namespace

std::unique_ptr<sql_connection> open_sqlite(const fs::path& path, bool read_only) {
  if (!read_only && path.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
  }
  return std::make_unique<sqlite_connection>(path, read_only);
}

}  // namespace kopt::memory
