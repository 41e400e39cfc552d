#pragma once
// The strategy memory's database connection, one interface for the two databases it can live in
// (sqlite_connection.h: a file; postgresql_connection.h: a server a team shares), used by the
// files of the memory module that keep tables in it (memory_store.cpp: outcomes and migrations;
// ledger_store.cpp: the run ledger). Not for use outside the module.
//
// Queries are written once, in the SQL both databases read, with numbered placeholders (?1, ?2;
// a bare ? counts on from the last); what differs (how the schema is marked, the column that
// keeps insertion order, the migrations) is asked of the connection.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace kopt::memory {

// One prepared statement: bind by position (from 1), step, read columns (from 0).
class sql_statement {
 public:
  virtual ~sql_statement() = default;
  virtual sql_statement& bind(int i, const std::string& text) = 0;
  virtual sql_statement& bind(int i, std::int64_t value) = 0;
  // True while there is a row; throws kopt::error naming the memory when the database refuses.
  virtual bool step() = 0;
  virtual std::string text(int column) const = 0;
  virtual std::int64_t integer(int column) const = 0;
  // Rows the statement's last step inserted, updated or deleted.
  virtual std::int64_t changes() const = 0;
  // Ready to be bound and stepped again.
  virtual void reset() = 0;
};

// What a database says it is, read without writing anything.
struct schema_identity {
  std::int64_t application = 0;  // kopt's mark (0: none)
  std::int64_t version = 0;      // the schema version (0: none)
  std::int64_t tables = 0;       // tables of any program
};

class sql_connection {
 public:
  virtual ~sql_connection() = default;
  // The memory as kopt shows it in messages, manifests and reports: a file's path, a server's URL
  // without its password.
  virtual const std::string& shown_name() const = 0;
  virtual std::unique_ptr<sql_statement> prepare(const std::string& sql) = 0;
  // Readies a database kopt accepted for writers that come and go at once, before any migration.
  virtual void prepare_for_writers() = 0;
  // Statements without parameters, one or several.
  virtual void exec(const std::string& sql, const char* what) = 0;
  // A transaction for writing; writers of one memory take turns (a second waits for the first).
  virtual void begin_writing() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  virtual schema_identity identity() = 0;
  // Marks the database as a kopt memory of `version`, inside the migration's transaction.
  virtual void mark(int version) = 0;
  virtual bool has_table(const std::string& name) = 0;
  // The column that orders rows as they were inserted (SQLite's rowid, a sequence elsewhere).
  virtual const char* insertion_order() const = 0;
  // Ordered; migration i takes the schema from version i to i + 1 (memory_schema.h).
  virtual std::span<const char* const> migrations() const = 0;
};

// Runs `body` in a writing transaction: committed when it returns, rolled back when it throws.
template <typename Body>
void in_write_transaction(sql_connection& c, Body&& body) {
  c.begin_writing();
  try {
    body();
    c.commit();
  } catch (...) {
    c.rollback();
    throw;
  }
}

}  // namespace kopt::memory
