#include "pipeline/spread_results.h"

#include <fmt/format.h>

namespace kopt::pipeline {

spread_entry spread_entry_of(const std::string& file, int gpu,
                             const std::optional<build_failure>& failed_build,
                             const std::function<json()>& document) {
  if (!failed_build) return {file, gpu, document(), ""};
  return {file, gpu, std::nullopt,
          fmt::format("compile failed: {}: {}", failed_build->file, failed_build->result.failure_reason)};
}

json spread_document(const std::string& command, const std::vector<spread_entry>& entries) {
  json results = json::array();
  for (const spread_entry& e : entries) {
    results.push_back(json{{"file", e.file},
                           {"gpu", e.gpu},
                           {"document", e.document ? *e.document : json(nullptr)},
                           {"failure", e.failure.empty() ? json(nullptr) : json(e.failure)}});
  }
  return json{{"command", command}, {"results", std::move(results)}};
}

}  // namespace kopt::pipeline
