#include "loop/run_records.h"

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::loop {

std::string tuned_text(const tuned_values& tuned) {
  return fmt::format("{} ({} of {} allowed configurations measured; {})", join(tuned.defines, " "),
                     tuned.measured, tuned.allowed, tuned.tune_result);
}

const candidate_record* iteration_record::find_candidate(int candidate) const {
  for (const auto& c : candidates) {
    if (c.candidate == candidate) return &c;
  }
  return nullptr;
}

const iteration_record* run_manifest::find(std::int64_t iteration) const {
  for (const auto& r : iterations) {
    if (r.iteration == iteration) return &r;
  }
  return nullptr;
}

const std::vector<std::string>* run_manifest::tags_of(const std::string& fingerprint) const {
  for (const auto& r : iterations) {
    if (r.fingerprint == fingerprint) return &r.tags;
  }
  return nullptr;
}

}  // namespace kopt::loop
