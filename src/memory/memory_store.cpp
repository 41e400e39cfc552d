#include "memory/memory_store.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/document.h"
#include "core/error.h"
#include "core/json_limits.h"
#include "core/utc_time.h"
#include "measure/outcome.h"
#include "memory/memory_location.h"
#include "memory/memory_schema.h"
#include "memory/postgresql_connection.h"
#include "memory/sqlite_connection.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::memory {
namespace fs = std::filesystem;
namespace {

constexpr const char* outcome_columns =
    "run_id, iteration, candidate, fingerprint, backend, tags, arch, op, op_family, dims, bottleneck, outcome, "
    "reason, evidence, recorded_at, attempt, superseded";

// A JSON column as kopt stored it; a database changed behind kopt's back is named, not a crash.
template <typename T>
T stored(const std::string& text, const std::string& memory, const char* column) {
  try {
    return from_document<T>(parse_json_checked(text));
  } catch (const document_error& e) {
    throw e.in(fmt::format("strategy memory {}: a stored {}", memory, column),
               "the database was changed outside kopt; restore it or give another --memory-db");
  }
}

recorded_outcome outcome_of_row(const sql_statement& row, const std::string& memory) {
  recorded_outcome o;
  o.run_id = row.text(0);
  o.iteration = row.integer(1);
  o.candidate = row.text(2);
  o.fingerprint = row.text(3);
  o.scope.backend = row.text(4);
  o.tags = stored<std::vector<std::string>>(row.text(5), memory, "outcome's tags");
  o.scope.arch = row.text(6);
  o.scope.op = row.text(7);
  o.scope.op_family = row.text(8);
  o.scope.dims = row.text(9);
  o.scope.bottleneck = row.text(10);
  o.outcome = row.text(11);
  o.reason = row.text(12);
  o.evidence = stored<json>(row.text(13), memory, "outcome's evidence");
  o.recorded_at = row.text(14);
  o.attempt = row.integer(15);
  o.superseded = row.integer(16) != 0;
  return o;
}

// The schema version of a kopt memory (0 for a new, empty database kopt will make one of).
// Throws kopt::error naming the memory for another program's database, a newer kopt's, or a
// version no kopt writes (a negative one, say): kopt has no migration from there.
int check_is_kopt_memory(const schema_identity& id, const std::string& memory) {
  if (id.application == 0 && id.tables == 0 && id.version == 0) return 0;
  if (id.application != memory_application_id) {
    throw error(fmt::format("{} is not a kopt strategy memory (another program's database?): give another "
                            "--memory-db{}",
                            memory,
                            is_postgresql_url(memory) ? " (an empty database, or a schema of its own: "
                                                        "?options=-csearch_path%3Dkopt)"
                                                      : ""));
  }
  if (id.version > memory_store::current_schema_version()) {
    throw error(fmt::format("{} was written by a newer kopt (memory schema {}, this kopt reads up to {}): use that "
                            "kopt or another --memory-db",
                            memory, id.version, memory_store::current_schema_version()));
  }
  if (id.version < 1) {
    throw error(fmt::format("{} says it is memory schema {}, which no kopt writes (this kopt knows 1 to {}): the "
                            "{} is damaged; restore it or give another --memory-db",
                            memory, id.version, memory_store::current_schema_version(),
                            is_postgresql_url(memory) ? "database" : "file"));
  }
  return static_cast<int>(id.version);
}

std::unique_ptr<sql_connection> connect(const std::string& location, bool read_only) {
  return is_postgresql_url(location) ? open_postgresql(location, read_only) : open_sqlite(location, read_only);
}

}  // namespace

memory_store::memory_store(std::unique_ptr<sql_connection> db) : m_db(std::move(db)) {}
memory_store::~memory_store() = default;
memory_store::memory_store(memory_store&&) noexcept = default;
memory_store& memory_store::operator=(memory_store&&) noexcept = default;

int memory_store::current_schema_version() { return static_cast<int>(sqlite_migrations().size()); }

const std::string& memory_store::shown_name() const { return m_db->shown_name(); }

memory_store memory_store::open(const fs::path& location) {
  std::unique_ptr<sql_connection> c = connect(location.string(), false);
  // Read before anything is written: a database kopt refuses is left exactly as it was.
  check_is_kopt_memory(c->identity(), c->shown_name());
  c->prepare_for_writers();
  in_write_transaction(*c, [&] {
    // Again under the lock: another process may have created or migrated it meanwhile.
    const int version = check_is_kopt_memory(c->identity(), c->shown_name());
    if (version < current_schema_version()) {
      for (int v = version; v < current_schema_version(); ++v) c->exec(c->migrations()[static_cast<std::size_t>(v)], "migrating");
      c->mark(current_schema_version());
    }
  });
  return memory_store(std::move(c));
}

memory_store memory_store::open_read_only(const fs::path& location) {
  std::error_code ec;
  if (!is_postgresql_url(location.string()) && !fs::is_regular_file(location, ec)) {
    throw error(fmt::format("strategy memory {} does not exist (a loop creates it; --memory-db names another)",
                            location.string()));
  }
  std::unique_ptr<sql_connection> c = connect(location.string(), true);
  // Older schemas differ by indexes, on which every query still works, and by the run ledger's
  // tables, which its reader finds missing (ledger_store.h); a new, empty database has nothing
  // to read and no tables to read it from.
  if (check_is_kopt_memory(c->identity(), c->shown_name()) == 0) {
    throw error(fmt::format("{} is not a kopt strategy memory yet (an empty database): give the --memory-db a loop "
                            "wrote",
                            c->shown_name()));
  }
  return memory_store(std::move(c));
}

int memory_store::schema_version() const { return static_cast<int>(m_db->identity().version); }

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
  in_write_transaction(*m_db, [&] {
    const auto insert = m_db->prepare(fmt::format(
        "INSERT INTO outcomes ({}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING", outcome_columns));
    for (const recorded_outcome& o : outcomes) {
      insert->bind(1, o.run_id).bind(2, o.iteration).bind(3, o.candidate).bind(4, o.fingerprint);
      insert->bind(5, o.scope.backend).bind(6, json_text(json(o.tags), -1)).bind(7, o.scope.arch).bind(8, o.scope.op);
      insert->bind(9, o.scope.op_family).bind(10, o.scope.dims).bind(11, o.scope.bottleneck).bind(12, o.outcome);
      insert->bind(13, o.reason).bind(14, json_text(o.evidence, -1)).bind(15, o.recorded_at);
      insert->bind(16, o.attempt).bind(17, static_cast<std::int64_t>(o.superseded ? 1 : 0));
      insert->step();
      added.push_back(insert->changes() > 0);
      insert->reset();
    }
  });
  return added;
}

bool memory_store::offer_once(const std::string& content_sha256, const std::string& path) {
  const auto insert = m_db->prepare(
      "INSERT INTO offered_files (content_sha256, path, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
  insert->bind(1, content_sha256).bind(2, path).bind(3, utc_timestamp());
  insert->step();
  return insert->changes() > 0;
}

void memory_store::revise(const std::string& run_id, std::int64_t iteration, std::int64_t attempt,
                          const std::string& candidate, const std::string& outcome, const std::string& reason) {
  measure::parse_outcome(outcome);
  const auto update = m_db->prepare(
      "UPDATE outcomes SET outcome = ?, reason = ? WHERE run_id = ? AND iteration = ? AND attempt = ? AND candidate = ?");
  update->bind(1, outcome).bind(2, reason).bind(3, run_id).bind(4, iteration).bind(5, attempt).bind(6, candidate);
  update->step();
}

std::vector<offered_file> memory_store::offered_files() const {
  const auto query =
      m_db->prepare("SELECT content_sha256, path, offered_at FROM offered_files ORDER BY offered_at, content_sha256");
  std::vector<offered_file> list;
  while (query->step()) list.push_back({query->text(0), query->text(1), query->text(2)});
  return list;
}

std::size_t memory_store::record_offers(const std::vector<offered_file>& files) {
  std::size_t added = 0;
  in_write_transaction(*m_db, [&] {
    const auto insert = m_db->prepare(
        "INSERT INTO offered_files (content_sha256, path, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    for (const offered_file& f : files) {
      insert->bind(1, f.content_sha256).bind(2, f.path).bind(3, f.offered_at).step();
      added += insert->changes() > 0 ? 1 : 0;
      insert->reset();
    }
  });
  return added;
}

void memory_store::supersede(const std::string& run_id, std::int64_t iteration, std::int64_t attempt) {
  const auto update = m_db->prepare("UPDATE outcomes SET superseded = 1 WHERE run_id = ? AND iteration = ? AND attempt = ?");
  update->bind(1, run_id).bind(2, iteration).bind(3, attempt);
  update->step();
}

namespace {

// Rows of (fingerprint, backend, tags, outcome, recorded_at), ordered by fingerprint, summed up.
std::vector<strategy_summary> summaries_of(sql_statement& query, const std::string& memory, bool unplaced) {
  std::vector<strategy_summary> summaries;
  while (query.step()) {
    if (summaries.empty() || summaries.back().fingerprint != query.text(0)) {
      strategy_summary s;
      s.fingerprint = query.text(0);
      s.backend = query.text(1);
      s.tags = stored<std::vector<std::string>>(query.text(2), memory, "outcome's tags");
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
std::vector<strategy_summary> summaries_where(sql_connection& db, const summary_filter& filter,
                                              std::string_view placement, bool unplaced) {
  const auto query = db.prepare(fmt::format("SELECT fingerprint, backend, tags, outcome, recorded_at FROM outcomes "
                                            "WHERE superseded = 0 AND (?1 = '' OR backend = ?1) AND {} "
                                            "ORDER BY fingerprint, recorded_at, {}",
                                            placement, db.insertion_order()));
  query->bind(1, filter.backend).bind(2, filter.bottleneck).bind(3, filter.arch);
  return summaries_of(*query, db.shown_name(), unplaced);
}

std::vector<recorded_outcome> outcomes_where(sql_connection& db, const std::string& condition,
                                             const std::optional<std::string>& value) {
  const auto query = db.prepare(fmt::format("SELECT {} FROM outcomes {} ORDER BY recorded_at, {}", outcome_columns,
                                            condition, db.insertion_order()));
  if (value) query->bind(1, *value);
  std::vector<recorded_outcome> list;
  while (query->step()) list.push_back(outcome_of_row(*query, db.shown_name()));
  return list;
}

}  // namespace

std::vector<strategy_summary> memory_store::summarize(const summary_filter& filter) const {
  return summaries_where(*m_db, filter, "(?2 = '' OR bottleneck = ?2) AND (?3 = '' OR arch = ?3)", false);
}

std::vector<strategy_summary> memory_store::summarize_unplaced(const summary_filter& filter) const {
  return summaries_where(*m_db, filter,
                         "(?2 = '' OR bottleneck = ?2 OR bottleneck = '') AND (?3 = '' OR arch = ?3 OR arch = '') "
                         "AND ((?2 <> '' AND bottleneck = '') OR (?3 <> '' AND arch = ''))",
                         true);
}

std::vector<recorded_outcome> memory_store::history(const std::string& fingerprint) const {
  return outcomes_where(*m_db, "WHERE fingerprint = ?1", fingerprint);
}

std::vector<recorded_outcome> memory_store::all() const { return outcomes_where(*m_db, "", std::nullopt); }

namespace {

std::vector<std::string> fingerprints_in_scope(sql_connection& db, const memory_scope& scope, const char* outcomes) {
  const auto query = db.prepare(fmt::format("SELECT DISTINCT fingerprint FROM outcomes WHERE backend = ? AND arch = ? "
                                            "AND op = ? AND dims = ? AND superseded = 0 AND outcome IN ({}) "
                                            "ORDER BY fingerprint",
                                            outcomes));
  query->bind(1, scope.backend).bind(2, scope.arch).bind(3, scope.op).bind(4, scope.dims);
  std::vector<std::string> list;
  while (query->step()) list.push_back(query->text(0));
  return list;
}

}  // namespace

std::vector<std::string> memory_store::blocked(const memory_scope& scope) const {
  return fingerprints_in_scope(*m_db, scope, "'negative', 'rejected'");
}

std::vector<std::string> memory_store::preferred(const memory_scope& scope) const {
  return fingerprints_in_scope(*m_db, scope, "'positive'");
}

std::optional<std::string> named_memory_location(const std::optional<std::string>& flag) {
  if (flag && !flag->empty()) return *flag;
  if (const char* env = std::getenv("KOPT_MEMORY_DB"); env != nullptr && *env != '\0') return env;
  return std::nullopt;
}

fs::path default_memory_path(const std::optional<std::string>& flag) {
  if (const std::optional<std::string> named = named_memory_location(flag)) return *named;
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
