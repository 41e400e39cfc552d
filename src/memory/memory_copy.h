#pragma once
// A memory moved to another database (a SQLite file into a team's PostgreSQL server, or back):
// every outcome as it was recorded (its time, attempt and superseded mark kept), the files
// offered for import, and the run ledger, each entry checked against its seal here and sealed
// again there. What the destination holds already stays; copying again after an interruption
// adds only what is missing.

#include <cstddef>

#include "memory/ledger_store.h"
#include "memory/memory_store.h"

namespace kopt::memory {

struct memory_copy_counts {
  std::size_t outcomes_added = 0;
  std::size_t outcomes_already_there = 0;
  std::size_t offers_added = 0;
  ledger_copy ledger;
};

memory_copy_counts copy_memory(const memory_store& from, memory_store& to);

}  // namespace kopt::memory
