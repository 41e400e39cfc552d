#pragma once
// The one JSON value type of kopt: keys keep the order they were written in, so documents read
// as their writers list them.

#include <nlohmann/json.hpp>

namespace kopt {

using json = nlohmann::ordered_json;

}  // namespace kopt
