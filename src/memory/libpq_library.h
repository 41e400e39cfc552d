#pragma once
// libpq, loaded when a PostgreSQL memory is first named and not before: kopt links nothing of
// PostgreSQL, so the carried build and the wheel run where libpq is missing, and a user who never
// names a postgresql:// memory never needs it.

#include <libpq-fe.h>

#include <string>

#include <boost/describe/class.hpp>

namespace kopt::memory {

// The functions of libpq kopt calls, under libpq's own names (the names they are resolved by),
// resolved once from libpq.so.5 (or the file $KOPT_LIBPQ names).
struct libpq_library {
  decltype(&::PQconnectdb) PQconnectdb;
  decltype(&::PQstatus) PQstatus;
  decltype(&::PQerrorMessage) PQerrorMessage;
  decltype(&::PQfinish) PQfinish;
  decltype(&::PQsetNoticeProcessor) PQsetNoticeProcessor;
  decltype(&::PQexec) PQexec;
  decltype(&::PQexecParams) PQexecParams;
  decltype(&::PQresultStatus) PQresultStatus;
  decltype(&::PQresultErrorMessage) PQresultErrorMessage;
  decltype(&::PQntuples) PQntuples;
  decltype(&::PQgetvalue) PQgetvalue;
  decltype(&::PQcmdTuples) PQcmdTuples;
  decltype(&::PQclear) PQclear;
};
BOOST_DESCRIBE_STRUCT(libpq_library, (),
                      (PQconnectdb, PQstatus, PQerrorMessage, PQfinish, PQsetNoticeProcessor, PQexec,
                       PQexecParams, PQresultStatus, PQresultErrorMessage, PQntuples, PQgetvalue, PQcmdTuples,
                       PQclear))

// Loads libpq the first time (later calls return the same). Throws kopt::error naming the
// library and how to install it, with `memory` (the memory being opened, as shown), when it
// cannot be loaded or lacks a function.
const libpq_library& load_libpq(const std::string& memory);

}  // namespace kopt::memory
