#include "pipeline/spread_results.h"

namespace kopt::pipeline {

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
