#pragma once
// The strategy memory's SQLite connection and prepared statements, shared by the files of the
// memory module that keep tables in the one database (memory_store.cpp: outcomes and
// migrations; ledger_store.cpp: the run ledger). Not for use outside the module.

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::memory {

namespace fs = std::filesystem;

// SQLite's own message after what kopt was doing, with the file.
[[noreturn]] inline void fail_on(sqlite3* db, const fs::path& path, const std::string& what) {
  throw error(fmt::format("strategy memory {}: {}: {}", path.string(), what, sqlite3_errmsg(db)));
}

struct sqlite_connection {
  sqlite3* db = nullptr;
  fs::path path;
  ~sqlite_connection() {
    if (db != nullptr) sqlite3_close_v2(db);
  }

  [[noreturn]] void fail(const std::string& what) const { fail_on(db, path, what); }

  void exec(const char* sql, const char* what) const {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(what);
  }

  // For a statement SQLite refuses at once while another connection holds the database (rather
  // than wait on its busy handler, which could deadlock the two): tried again for as long as
  // the busy timeout would have waited.
  void exec_waiting(const char* sql, const char* what) const {
    using clock = std::chrono::steady_clock;
    const auto give_up = clock::now() + std::chrono::seconds(60);
    while (true) {
      const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) fail(what);
      if (clock::now() > give_up) fail(what);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
};

// One prepared statement; bind by position (from 1), step, read columns (from 0).
class statement {
 public:
  statement(sqlite3* db, const char* sql, const fs::path& path) : m_db(db), m_path(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &m_statement, nullptr) != SQLITE_OK) fail("preparing a query");
  }
  ~statement() { sqlite3_finalize(m_statement); }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  statement& bind(int i, const std::string& text) {
    sqlite3_bind_text(m_statement, i, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  statement& bind(int i, std::int64_t value) {
    sqlite3_bind_int64(m_statement, i, value);
    return *this;
  }
  // True while there is a row.
  bool step() {
    const int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("reading or writing");
  }
  std::string text(int column) const {
    const unsigned char* value = sqlite3_column_text(m_statement, column);
    return value == nullptr ? "" : reinterpret_cast<const char*>(value);
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(m_statement, column); }
  // Ready to be bound and stepped again.
  void reset() {
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
  }

 private:
  [[noreturn]] void fail(const char* what) const { fail_on(m_db, m_path, what); }
  sqlite3* m_db;
  const fs::path& m_path;
  sqlite3_stmt* m_statement = nullptr;
};

}  // namespace kopt::memory
