#pragma once
// The strategy memory's schema, as migrations in the two databases it can live in. Both lists
// have the same versions and the same meaning: a version number is one schema, whichever
// database holds it (a memory copied from one to the other keeps its version).

#include <span>

namespace kopt::memory {

// "kopt" in ASCII: marks a database as kopt's, so another program's is refused.
constexpr int memory_application_id = 0x6b6f7074;

std::span<const char* const> sqlite_migrations();
std::span<const char* const> postgresql_migrations();

}  // namespace kopt::memory
