#pragma once
// A fresh, empty strategy memory for a test, in each database kopt supports: a SQLite file in a
// scratch folder, or a schema of its own on the test PostgreSQL server (scripts/postgres_server.sh,
// which CTest starts: its URL is in the file $KOPT_TEST_POSTGRESQL_FILE). Without that server a
// PostgreSQL test fails, naming what is missing; it never skips.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "memory/sql_connection.h"
#include "support/kopt_process.h"

namespace kopt::memory::testing {

enum class backend { sqlite, postgresql };

// For test names: "sqlite", "postgresql".
std::string backend_name(backend b);
// The name of a test instantiated for each backend (INSTANTIATE_TEST_SUITE_P's last argument).
inline std::string backend_test_name(const ::testing::TestParamInfo<backend>& test) { return backend_name(test.param); }
// Every backend, for INSTANTIATE_TEST_SUITE_P.
inline auto every_backend() { return ::testing::Values(backend::sqlite, backend::postgresql); }

class test_memory {
 public:
  explicit test_memory(backend b);
  ~test_memory();  // drops the schemas it made
  test_memory(const test_memory&) = delete;
  test_memory& operator=(const test_memory&) = delete;

  backend kind() const { return m_backend; }
  // Where memory `name` of this test lives (a path or a URL, password and all); several names
  // are several memories, each empty until written. A PostgreSQL client that connects with a
  // non-empty `client` is known by it (writer_holds).
  std::string location(const std::string& name = "memory", const std::string& client = "");
  // A connection to it, for what a test does behind kopt's back (tables of another program, a
  // schema mark of a newer kopt, a damaged row).
  std::unique_ptr<sql_connection> connect(const std::string& name = "memory");
  // What the memory holds, as text that changes when anything in it does (a file's bytes, the
  // schema's tables and mark): a refused memory must be left as it was.
  std::string contents(const std::string& name = "memory");
  // Whether a writing transaction holds the memory now (another writer would have to wait); on
  // PostgreSQL, one of the client that connected to location(name, client).
  bool writer_holds(const std::string& name, const std::string& client);
  const kopt::testing::scratch_dir& folder() const { return m_dir; }

 private:
  backend m_backend;
  kopt::testing::scratch_dir m_dir;
  std::string m_server;                  // the PostgreSQL server's URL
  std::string m_prefix;                  // of this test's schemas
  std::vector<std::string> m_schemas;    // made so far
};

}  // namespace kopt::memory::testing
