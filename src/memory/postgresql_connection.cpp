#include "memory/postgresql_connection.h"

#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "memory/libpq_library.h"
#include "memory/memory_location.h"
#include "memory/memory_schema.h"

namespace kopt::memory {
namespace {

// libpq's message on one line (it writes several, with tabs).
std::string one_line(const char* message) {
  std::string line;
  for (const char* c = message; c != nullptr && *c != '\0'; ++c) {
    if (*c == '\n' || *c == '\t') {
      if (!line.empty() && line.back() != ' ') line += (*c == '\n' ? "; " : " ");
    } else {
      line += *c;
    }
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == ';')) line.pop_back();
  return line;
}

// The queries are written with SQLite's ?N placeholders (sql_connection.h); PostgreSQL's are $N.
// kopt's SQL holds no ? inside a literal.
std::string with_dollar_placeholders(const std::string& sql) {
  std::string out;
  int next = 1;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] != '?') {
      out += sql[i];
      continue;
    }
    std::size_t end = i + 1;
    while (end < sql.size() && std::isdigit(static_cast<unsigned char>(sql[end])) != 0) ++end;
    int number = next;
    if (end > i + 1) std::from_chars(sql.data() + i + 1, sql.data() + end, number);
    out += fmt::format("${}", number);
    next = number + 1;
    i = end - 1;
  }
  return out;
}

// A result that libpq frees when it goes.
class pg_result {
 public:
  pg_result(const libpq_library& pq, PGresult* result) : m_pq(&pq), m_result(result) {}
  ~pg_result() {
    if (m_result != nullptr) m_pq->PQclear(m_result);
  }
  pg_result(pg_result&& other) noexcept : m_pq(other.m_pq), m_result(other.m_result) { other.m_result = nullptr; }
  pg_result& operator=(pg_result&& other) noexcept {
    std::swap(m_pq, other.m_pq);
    std::swap(m_result, other.m_result);
    return *this;
  }
  PGresult* get() const { return m_result; }

 private:
  const libpq_library* m_pq;
  PGresult* m_result;
};

class postgresql_link {
 public:
  postgresql_link(const libpq_library& library, PGconn* connection, std::string shown)
      : pq(library), conn(connection), name(std::move(shown)) {}
  ~postgresql_link() { pq.PQfinish(conn); }
  postgresql_link(const postgresql_link&) = delete;
  postgresql_link& operator=(const postgresql_link&) = delete;

  // The result of a command or query; throws kopt::error with the server's message otherwise.
  pg_result checked(PGresult* raw, const char* what) const {
    pg_result result(pq, raw);
    const ExecStatusType status = raw == nullptr ? PGRES_FATAL_ERROR : pq.PQresultStatus(raw);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const char* message = raw != nullptr ? pq.PQresultErrorMessage(raw) : pq.PQerrorMessage(conn);
      throw error(fmt::format("strategy memory {}: {}: {}", name, what, one_line(message)));
    }
    return result;
  }

  const libpq_library& pq;
  PGconn* conn;
  std::string name;
};

class postgresql_statement final : public sql_statement {
 public:
  postgresql_statement(const postgresql_link& link, std::string sql) : m_link(link), m_sql(std::move(sql)) {}

  sql_statement& bind(int i, const std::string& text) override {
    if (static_cast<std::size_t>(i) > m_values.size()) m_values.resize(static_cast<std::size_t>(i));
    m_values[static_cast<std::size_t>(i - 1)] = text;
    return *this;
  }
  sql_statement& bind(int i, std::int64_t value) override { return bind(i, std::to_string(value)); }
  bool step() override {
    if (!m_result) run();
    return ++m_row < m_rows;
  }
  std::string text(int column) const override { return m_link.pq.PQgetvalue(m_result->get(), m_row, column); }
  std::int64_t integer(int column) const override {
    const std::string value = text(column);
    if (value == "t" || value == "f") return value == "t" ? 1 : 0;  // a boolean column
    std::int64_t number = 0;
    std::from_chars(value.data(), value.data() + value.size(), number);
    return number;
  }
  std::int64_t changes() const override { return m_changes; }
  void reset() override {
    m_values.clear();
    m_result.reset();
    m_row = -1;
    m_rows = 0;
    m_changes = 0;
  }

 private:
  void run() {
    std::vector<const char*> values;
    for (const std::optional<std::string>& v : m_values) values.push_back(v ? v->c_str() : nullptr);
    m_result.emplace(
        m_link.checked(m_link.pq.PQexecParams(m_link.conn, m_sql.c_str(), static_cast<int>(values.size()),
                                              nullptr, values.data(), nullptr, nullptr, 0),
                       "reading or writing"));
    m_rows = m_link.pq.PQntuples(m_result->get());
    const char* changed = m_link.pq.PQcmdTuples(m_result->get());
    m_changes = 0;
    if (changed != nullptr) std::from_chars(changed, changed + std::char_traits<char>::length(changed), m_changes);
  }

  const postgresql_link& m_link;
  std::string m_sql;
  std::vector<std::optional<std::string>> m_values;
  std::optional<pg_result> m_result;
  int m_row = -1;
  int m_rows = 0;
  std::int64_t m_changes = 0;
};

void ignore_notice(void*, const char*) {}

class postgresql_connection final : public sql_connection {
 public:
  explicit postgresql_connection(std::unique_ptr<postgresql_link> link) : m_link(std::move(link)) {}

  const std::string& shown_name() const override { return m_link->name; }
  std::unique_ptr<sql_statement> prepare(const std::string& sql) override {
    return std::make_unique<postgresql_statement>(*m_link, with_dollar_placeholders(sql));
  }
  void prepare_for_writers() override {}  // the server has them take turns (begin_writing)
  void exec(const std::string& sql, const char* what) override {
    m_link->checked(m_link->pq.PQexec(m_link->conn, sql.c_str()), what);
  }
  void begin_writing() override {
    exec("BEGIN", "cannot start writing");
    exec(fmt::format("SELECT pg_advisory_xact_lock({})", memory_application_id), "cannot lock for writing");
  }
  void commit() override { exec("COMMIT", "cannot commit"); }
  void rollback() noexcept override { m_link->pq.PQclear(m_link->pq.PQexec(m_link->conn, "ROLLBACK")); }

  schema_identity identity() override {
    schema_identity id;
    auto tables = prepare(
        "SELECT (SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()), "
        "to_regclass('kopt_memory') IS NOT NULL");
    if (!tables->step()) return id;
    id.tables = tables->integer(0);
    if (tables->integer(1) == 0) return id;
    auto mark = prepare("SELECT application, version FROM kopt_memory WHERE id = 1");
    if (mark->step()) {
      id.application = mark->integer(0);
      id.version = mark->integer(1);
    }
    return id;
  }
  void mark(int version) override {
    exec("CREATE TABLE IF NOT EXISTS kopt_memory (id INTEGER PRIMARY KEY CHECK (id = 1), application BIGINT NOT NULL, "
         "version INTEGER NOT NULL)",
         "marking the database");
    exec(fmt::format("INSERT INTO kopt_memory (id, application, version) VALUES (1, {}, {}) ON CONFLICT (id) DO UPDATE "
                     "SET application = excluded.application, version = excluded.version",
                     memory_application_id, version),
         "recording the schema version");
  }
  bool has_table(const std::string& name) override {
    auto query = prepare("SELECT to_regclass(?1) IS NOT NULL");
    query->bind(1, name);
    return query->step() && query->integer(0) == 1;
  }
  const char* insertion_order() const override { return "seq"; }
  std::span<const char* const> migrations() const override { return postgresql_migrations(); }

 private:
  std::unique_ptr<postgresql_link> m_link;
};

}  // namespace

std::unique_ptr<sql_connection> open_postgresql(const std::string& url, bool read_only) {
  const std::string name = shown_location(url);
  const libpq_library& pq = load_libpq(name);
  // An unreachable server fails the call in seconds rather than hang a loop for TCP's minutes.
  const std::string with_timeout = url.find("connect_timeout=") != std::string::npos ? url
                                   : url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=10";
  PGconn* conn = pq.PQconnectdb(with_timeout.c_str());
  if (conn == nullptr || pq.PQstatus(conn) != CONNECTION_OK) {
    const std::string why = conn != nullptr ? one_line(pq.PQerrorMessage(conn)) : "out of memory";
    if (conn != nullptr) pq.PQfinish(conn);
    throw error(fmt::format("strategy memory {}: cannot connect: {} (check that the server runs, the URL, and the "
                            "password: in the URL, PGPASSWORD or ~/.pgpass)",
                            name, why));
  }
  // The server's notices ("already exists, skipping") are not the user's business.
  pq.PQsetNoticeProcessor(conn, ignore_notice, nullptr);
  auto link = std::make_unique<postgresql_link>(pq, conn, name);
  // As on a SQLite file, a writer waits for another at most a minute, then fails naming the memory.
  link->checked(pq.PQexec(conn, "SET lock_timeout = '60s'"), "setting the wait for other writers");
  if (read_only) link->checked(pq.PQexec(conn, "SET default_transaction_read_only = on"), "cannot read only");
  return std::make_unique<postgresql_connection>(std::move(link));
}

}  // namespace kopt::memory
