#pragma once
// Where a strategy memory lives, as --memory-db and KOPT_MEMORY_DB name it: a SQLite file's path,
// or a PostgreSQL server's URL (postgresql://user[:password]@host[:port]/database[?options]) that
// a team shares. A password in the URL is the one secret kopt is given: it reaches libpq and
// nothing else, and everything kopt writes or prints shows the URL without it.

#include <string>
#include <string_view>

namespace kopt::memory {

bool is_postgresql_url(std::string_view location);

// The location as kopt shows and records it: a URL without its password (in the user part or a
// password= parameter), a path as it is.
std::string shown_location(std::string_view location);

// The location to open for `recorded`, a memory as a manifest keeps it (shown_location): `given`
// when it is the same memory with its password, else `recorded` (libpq then finds the password in
// PGPASSWORD or ~/.pgpass, as it does for any client).
std::string with_credentials(const std::string& recorded, const std::string& given);

}  // namespace kopt::memory
