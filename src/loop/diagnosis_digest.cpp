#include "loop/diagnosis_digest.h"

#include <fmt/format.h>

#include "analyze/analysis_reader.h"
#include "analyze/bottleneck.h"
#include "core/error.h"

namespace kopt::loop {

diagnosis_digest digest_analysis(const analyze::analysis& analysis, const std::string& where) {
  const analyze::kernel_diagnosis* k = analyze::slowest_launch(analysis);
  if (k == nullptr) throw error(fmt::format("{} holds no analysed kernel launch: run the iteration again", where));
  diagnosis_digest d;
  d.kernel_name = k->kernel_name;
  d.bottleneck = std::string(analyze::to_string(k->verdict.cls));
  d.at_hardware_limit = k->verdict.at_hardware_limit;
  d.reason = k->verdict.reason;
  d.sm_pct = k->sol.sm_pct;
  d.memory_pct = k->sol.memory_pct;
  d.duration_ns = k->launch.duration_ns;
  d.occupancy_limiters = k->occ.limiters;
  for (const analyze::stall_reason& s : k->issue.stalls) {
    if (d.top_stalls.size() == 3) break;
    d.top_stalls.push_back(fmt::format("{} {:.0f} %", s.reason, s.share_pct));
  }
  for (const analyze::recommendation& r : k->recommendations) {
    d.suggestions.push_back({r.id, r.title, r.score, r.why, r.tags});
  }
  return d;
}

diagnosis_digest digest_analysis_file(const std::filesystem::path& file) {
  return digest_analysis(analyze::read_analysis_file(file), file.string());
}

}  // namespace kopt::loop
