#pragma once
// What kopt says of an exception that reached the top of a command or of an MCP request without
// being turned into a kopt::error below: the one-line error a user gets instead of a signal. A
// file system error names the path and the system's reason (a link that loops, a folder where a
// file was expected); anything else is named as what it is, marked as kopt's bug to report.

#include <exception>

#include "core/error.h"

namespace kopt {

// `e` as the error kopt reports (exit 2): a kopt::error as it is, any other exception in words.
error as_reported_error(const std::exception& e);

// The same for whatever is in flight in a catch (...) block, exceptions that are not
// std::exception included.
error current_exception_as_error();

}  // namespace kopt
