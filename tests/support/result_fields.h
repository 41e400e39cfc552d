#pragma once
// Reading kopt's result documents in tests: every field is present in a bench result, null
// where it does not apply (pipeline/bench_result.h).

#include "core/json_io.h"

namespace kopt::testing {

// Whether the document has `key` with a value (not missing, not null).
inline bool present(const json& document, const char* key) {
  return document.contains(key) && !document[key].is_null();
}

}  // namespace kopt::testing
