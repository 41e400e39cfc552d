#pragma once
// preflight_check.md and preflight_check.json.

#include <string>

#include "core/json_io.h"
#include "env/preflight.h"

namespace kopt::env {

std::string preflight_markdown(const preflight_report& report);
json preflight_json(const preflight_report& report);

}  // namespace kopt::env
