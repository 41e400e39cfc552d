#pragma once
// The strategy memory on a PostgreSQL server that a team's loops share (sql_connection.h). kopt's
// tables live in the schema the URL's search_path names (the user's default otherwise), marked by
// a kopt_memory table; writers take turns on a transaction-scoped advisory lock, so that two
// loops recording at once behave as they do on a SQLite file. libpq is loaded when the first
// such memory is opened (libpq_library.h).

#include <memory>
#include <string>

#include "memory/sql_connection.h"

namespace kopt::memory {

// Connects to the server `url` names (a postgresql:// URL, password and all); a read-only
// connection's transactions cannot write. Throws kopt::error naming the URL without its password
// when libpq is missing or the server cannot be reached.
std::unique_ptr<sql_connection> open_postgresql(const std::string& url, bool read_only);

}  // namespace kopt::memory
