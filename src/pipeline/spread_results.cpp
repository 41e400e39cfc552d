#include "pipeline/spread_results.h"

#include <fmt/format.h>

#include "core/document.h"

namespace kopt::pipeline {

spread_entry spread_entry_of(const std::string& file, int gpu,
                             const std::optional<build_failure>& failed_build,
                             const std::function<json()>& document) {
  if (!failed_build) return {file, gpu, document(), std::nullopt};
  return {file, gpu, std::nullopt,
          fmt::format("compile failed: {}: {}", failed_build->file, failed_build->result.failure_reason)};
}

json to_json(const spread_results& results) {
  return to_document(results);
}

spread_results read_spread_results(const json& document, std::string_view where) {
  return read_document<spread_results>(document, std::string(where),
                                       "the file is not the results of several files of this kopt");
}

}  // namespace kopt::pipeline
