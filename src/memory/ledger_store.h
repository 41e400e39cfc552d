#pragma once
// The run ledger: for each run folder the loop recorded, the record of what the run relies on
// (loop/run_ledger.h makes it: the digests of its manifest, snapshots, kept libraries, proposals
// and evidence), kept here in the strategy memory, outside the run folder, so that a run folder
// changed behind kopt's back can be told from one kopt left (EXPLOITS.md #30).
//
// Each entry is sealed with an HMAC-SHA256 under a random key kept in the same database and made
// the first time an entry is: an entry rewritten with plain SHA-256s (what an agent that forged
// the manifest would compute) does not pass. Whoever can read the database can read the key too:
// the seal raises the bar, it does not stop a forger who runs as the same user and looks for it
// (docs/integrity.md, "The loop between iterations").
//
// A record goes in two steps around the manifest's atomic write, so that a kill between the two
// leaves an entry that still agrees with the folder: `stage` (the record of the manifest about
// to be written), the write, then `commit` (the staged record becomes the run's).

#include <optional>
#include <string>

#include "memory/memory_store.h"

namespace kopt::memory {

// A run folder's identity: its absolute path and the run's id and start time in its manifest.
struct ledger_run {
  std::string run_dir;
  std::string run_id;
  std::string created_at;
};

struct ledger_entry {
  enum class found {
    none,       // no entry for this folder (or a memory older than the ledger)
    other_run,  // entries for this folder, none for this run
    this_run,
  };
  found state = found::none;
  std::optional<std::string> record;   // the committed record's text, its seal checked
  std::optional<std::string> staged;   // a record staged and not committed yet, its seal checked
  bool seal_broken = false;            // a stored record whose seal does not hold (or no key)
};

// What copy_to did with the entries.
struct ledger_copy {
  std::size_t copied = 0;
  std::size_t already_there = 0;  // the destination had an entry for that run
  std::size_t seal_broken = 0;    // not copied: its seal does not hold here
};

class ledger_store {
 public:
  // `store` is used, not owned; reading needs no more than memory_store::open_read_only.
  explicit ledger_store(const memory_store& store) : m_store(store) {}

  // One transaction: stages `record` for `run`, making the key first if the database has none;
  // entries of other runs in the same folder are dropped (a new run started there).
  void stage(const ledger_run& run, const std::string& record) const;
  // The staged record becomes the run's (nothing when none is staged).
  void commit(const ledger_run& run) const;
  ledger_entry find(const ledger_run& run) const;
  // Copies every entry whose seal holds here into `to` (a memory being moved), sealed there with
  // its key, made first when it has none; one transaction in `to`. A run `to` already has an
  // entry for keeps it.
  ledger_copy copy_to(const ledger_store& to) const;

 private:
  const memory_store& m_store;
};

}  // namespace kopt::memory
