#pragma once
// The strategy memory: every outcome of every strategy, in a database that loops, runs and
// kernels share: a SQLite file (the default), or a PostgreSQL server that a team's loops share
// (memory_location.h). Keyed so that it transfers (backend, GPU architecture, operator and its
// family, dimensions, diagnosed bottleneck), versioned with ordered migrations (the same
// versions in both databases), and written one transaction per outcome, keyed by (run,
// iteration, attempt, candidate): replaying an update after a kill is a no-op, and two loops
// writing at once lose nothing (the second waits for the first).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"

namespace kopt::memory {

class sql_connection;  // sql_connection.h

// Where an outcome was seen. An empty field is unknown (an imported record, say).
struct memory_scope {
  std::string backend;
  std::string arch;         // sm_90a, ...
  std::string op;           // operator name (--op, else the kernel's file stem)
  std::string op_family;
  std::string dims;         // the dimension flags, as given
  std::string bottleneck;   // the diagnosed class (analyze): dram, compute, ...
};

struct recorded_outcome {
  std::string run_id;
  std::int64_t iteration = 0;
  std::string candidate;             // which version of the iteration ("" for the only one)
  std::string fingerprint;
  std::vector<std::string> tags;     // normalized
  memory_scope scope;
  std::string outcome;               // positive, negative, neutral, inconclusive, rejected
  std::string reason;
  json evidence = json::object();    // medians, intervals, diagnosis before and after, ...
  std::string recorded_at;           // ISO 8601, UTC; filled when empty
  // A redone iteration's versions are attempts 2, 3, ... of it; an attempt redone is kept but
  // superseded: no longer evidence for or against its strategy (its run redid it).
  std::int64_t attempt = 1;
  bool superseded = false;
};

// One strategy's history in a set of outcomes.
struct strategy_summary {
  std::string fingerprint;
  std::string backend;
  std::vector<std::string> tags;
  std::int64_t positive = 0, negative = 0, neutral = 0, inconclusive = 0, rejected = 0;
  std::string last_outcome;
  std::string last_recorded_at;
  // Seen where its bottleneck or architecture is unknown (the Python toolkit's records keep
  // neither): weaker evidence for a filter that names them (summarize_unplaced).
  bool unplaced = false;
};

// A file kopt offered for import (offer_once).
struct offered_file {
  std::string content_sha256;
  std::string path;
  std::string offered_at;
};

struct summary_filter {
  std::string backend;      // "" any
  std::string bottleneck;   // "" any
  std::string arch;         // "" any
};

class memory_store {
 public:
  // Opens (creating a file and its folder when missing) and migrates the memory at `location`, a
  // path or a postgresql:// URL; several processes may do so at once, the first time too. Throws
  // kopt::error naming the memory for one that is not a kopt memory, is newer than this kopt or
  // of a schema no kopt writes; such a database is only read, never changed.
  static memory_store open(const std::filesystem::path& location);
  // Opens an existing memory for reading only: nothing is created, migrated or locked for
  // writing (a report may look at a memory it must not change). Throws kopt::error naming the
  // memory when it is missing, not a kopt memory, or newer than this kopt.
  static memory_store open_read_only(const std::filesystem::path& location);
  ~memory_store();
  memory_store(memory_store&&) noexcept;
  memory_store& operator=(memory_store&&) noexcept;

  // The schema version this kopt writes, and the database's.
  static int current_schema_version();
  int schema_version() const;

  // One transaction. False when (run_id, iteration, attempt, candidate) was already recorded
  // (nothing changes). Throws kopt::error when the fingerprint does not match the tags and backend.
  bool record(recorded_outcome outcome);
  // Every outcome in one transaction: all are recorded or, when one is refused or the write
  // fails, none. For each, whether it was new.
  std::vector<bool> record_all(std::vector<recorded_outcome> outcomes);
  // Marks every version of the run's iteration at that attempt superseded (the run redid it):
  // kept, but no longer counted for or against its strategy. Idempotent.
  void supersede(const std::string& run_id, std::int64_t iteration, std::int64_t attempt);
  // A later judgment of one recorded outcome (the final confirmation rejected the version): its
  // outcome and reason replaced, its scope, evidence and time kept. Throws kopt::error for an
  // outcome that is not one. Idempotent; nothing when no such outcome is recorded.
  void revise(const std::string& run_id, std::int64_t iteration, std::int64_t attempt, const std::string& candidate,
              const std::string& outcome, const std::string& reason);
  // Records that the file with this content was offered for import; false when it had been
  // already (so it is offered once, wherever it is copied).
  bool offer_once(const std::string& content_sha256, const std::string& path);
  std::vector<offered_file> offered_files() const;
  // Records files offered elsewhere (a memory copied here) as they were; one transaction. How
  // many were new here.
  std::size_t record_offers(const std::vector<offered_file>& files);

  std::vector<strategy_summary> summarize(const summary_filter& filter) const;
  // The outcomes summarize() leaves out only because their bottleneck or architecture is
  // unknown ("") where `filter` names one: each summary marked unplaced.
  std::vector<strategy_summary> summarize_unplaced(const summary_filter& filter) const;
  // Every outcome of a fingerprint, oldest first.
  std::vector<recorded_outcome> history(const std::string& fingerprint) const;
  // Every outcome, oldest first (export).
  std::vector<recorded_outcome> all() const;
  // Fingerprints that were negative or rejected in `scope` (its backend, arch, op and dims).
  std::vector<std::string> blocked(const memory_scope& scope) const;
  // Fingerprints that were positive in `scope`.
  std::vector<std::string> preferred(const memory_scope& scope) const;

  // The memory as kopt shows it: a file's path, a server's URL without its password.
  const std::string& shown_name() const;

 private:
  friend class ledger_store;  // keeps its tables in the same database (ledger_store.h)
  explicit memory_store(std::unique_ptr<sql_connection> db);
  std::unique_ptr<sql_connection> m_db;
};

// The memory the user named: --memory-db, else $KOPT_MEMORY_DB; none when neither names one.
std::optional<std::string> named_memory_location(const std::optional<std::string>& flag);

// The memory kopt uses: the one named, else $XDG_DATA_HOME/kopt/memory.db
// (~/.local/share/kopt/memory.db). A postgresql:// URL is kept as it is.
std::filesystem::path default_memory_path(const std::optional<std::string>& flag);

}  // namespace kopt::memory
