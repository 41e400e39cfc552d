#pragma once
// The strategy memory in a SQLite file (sql_connection.h): WAL mode so that readers never block
// a writer, writers one at a time (a second waits up to a minute for the first).

#include <filesystem>
#include <memory>

#include "memory/sql_connection.h"

namespace kopt::memory {

// Opens the file, creating it (and its folder) unless `read_only`. Throws kopt::error naming the
// file when it cannot be opened.
std::unique_ptr<sql_connection> open_sqlite(const std::filesystem::path& path, bool read_only);

}  // namespace kopt::memory
