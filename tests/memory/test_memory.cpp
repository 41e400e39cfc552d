#include "test_memory.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "memory/memory_schema.h"
#include "memory/postgresql_connection.h"
#include "memory/sqlite_connection.h"

namespace kopt::memory::testing {
namespace fs = std::filesystem;
namespace {

std::string server_url() {
  const char* file = std::getenv("KOPT_TEST_POSTGRESQL_FILE");
  if (file == nullptr || *file == '\0') {
    throw error("KOPT_TEST_POSTGRESQL_FILE is not set: run the memory's tests through ctest, which starts the "
                "PostgreSQL server (scripts/postgres_server.sh) and sets it");
  }
  std::ifstream in(file);
  std::string url;
  if (!std::getline(in, url) || url.empty()) {
    throw error(fmt::format("no PostgreSQL server for the tests: {} is missing or empty (scripts/postgres_server.sh "
                            "start writes it; ctest's postgres_server_start test runs it)",
                            file));
  }
  return url;
}

std::string random_suffix() {
  std::random_device device;
  return fmt::format("{:08x}", device());
}

std::string file_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::string backend_name(backend b) { return b == backend::sqlite ? "sqlite" : "postgresql"; }

test_memory::test_memory(backend b) : m_backend(b) {
  if (b == backend::postgresql) {
    m_server = server_url();
    m_prefix = "t" + random_suffix();
  }
}

test_memory::~test_memory() {
  if (m_schemas.empty()) return;
  try {
    auto admin = open_postgresql(m_server, false);
    for (const std::string& schema : m_schemas) admin->exec(fmt::format("DROP SCHEMA {} CASCADE", schema), "cleaning up");
  } catch (const error& e) {
    ADD_FAILURE() << e.headline();
  }
}

std::string test_memory::location(const std::string& name, const std::string& client) {
  if (m_backend == backend::sqlite) return (m_dir.path() / (name + ".db")).string();
  const std::string schema = m_prefix + "_" + name;
  if (std::find(m_schemas.begin(), m_schemas.end(), schema) == m_schemas.end()) {
    open_postgresql(m_server, false)->exec(fmt::format("CREATE SCHEMA {}", schema), "making a test schema");
    m_schemas.push_back(schema);
  }
  return fmt::format("{}{}options=-csearch_path%3D{}{}", m_server, m_server.find('?') == std::string::npos ? "?" : "&",
                     schema, client.empty() ? "" : "&application_name=" + client);
}

std::unique_ptr<sql_connection> test_memory::connect(const std::string& name) {
  const std::string where = location(name);
  return m_backend == backend::sqlite ? open_sqlite(where, false) : open_postgresql(where, false);
}

std::string test_memory::contents(const std::string& name) {
  if (m_backend == backend::sqlite) {
    const fs::path file = location(name);
    return file_bytes(file) + (fs::exists(file.string() + "-wal") ? "\n(and a write-ahead log)" : "");
  }
  auto c = connect(name);
  std::string text;
  auto tables = c->prepare(
      "SELECT table_name, (SELECT count(*) FROM information_schema.columns AS c WHERE c.table_schema = t.table_schema "
      "AND c.table_name = t.table_name) FROM information_schema.tables AS t WHERE table_schema = current_schema() "
      "ORDER BY table_name");
  while (tables->step()) text += fmt::format("{} ({} columns)\n", tables->text(0), tables->integer(1));
  if (c->has_table("kopt_memory")) {
    auto mark = c->prepare("SELECT application, version FROM kopt_memory");
    while (mark->step()) text += fmt::format("mark {} {}\n", mark->text(0), mark->text(1));
  }
  return text;
}

bool test_memory::writer_holds(const std::string& name, const std::string& client) {
  if (m_backend == backend::sqlite) {
    sqlite3* db = nullptr;
    const std::string file = location(name);
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);  // no busy timeout: at once
    if (rc == SQLITE_OK) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db);
    return rc == SQLITE_BUSY;
  }
  auto c = open_postgresql(m_server, false);
  auto held = c->prepare(fmt::format(
      "SELECT count(*) FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
      "AND l.granted AND l.objid = {} AND a.application_name = ?1",
      memory_application_id));
  held->bind(1, client);
  return held->step() && held->integer(0) > 0;
}

}  // namespace kopt::memory::testing
