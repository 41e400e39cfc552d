#pragma once
// libpq, loaded when a PostgreSQL memory is first named and not before: kopt links nothing of
// PostgreSQL, so the carried build and the wheel run where libpq is missing, and a user who never
// names a postgresql:// memory never needs it.

#include <libpq-fe.h>

#include <string>

namespace kopt::memory {

// The functions of libpq kopt calls, resolved once from libpq.so.5 (or the file $KOPT_LIBPQ names).
struct libpq_library {
  decltype(&::PQconnectdb) connectdb;
  decltype(&::PQstatus) status;
  decltype(&::PQerrorMessage) error_message;
  decltype(&::PQfinish) finish;
  decltype(&::PQsetNoticeProcessor) set_notice_processor;
  decltype(&::PQexec) exec;
  decltype(&::PQexecParams) exec_params;
  decltype(&::PQresultStatus) result_status;
  decltype(&::PQresultErrorMessage) result_error_message;
  decltype(&::PQntuples) ntuples;
  decltype(&::PQgetvalue) getvalue;
  decltype(&::PQcmdTuples) cmd_tuples;
  decltype(&::PQclear) clear;
};

// Loads libpq the first time (later calls return the same). Throws kopt::error naming the
// library and how to install it, with `memory` (the memory being opened, as shown), when it
// cannot be loaded or lacks a function.
const libpq_library& load_libpq(const std::string& memory);

}  // namespace kopt::memory
