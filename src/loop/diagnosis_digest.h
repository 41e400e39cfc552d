#pragma once
// The part of an analysis.json the loop acts on: the launch that took longest (where a new
// version gains most), its bottleneck class and the knowledge base's suggestions for it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyze/analyzer.h"

namespace kopt::loop {

struct suggestion {
  std::string id;       // knowledge-base entry
  std::string title;
  double score = 0;     // the analysis's own ranking
  std::string why;
  std::vector<std::string> tags;
};

struct diagnosis_digest {
  std::string kernel_name;
  std::string bottleneck;            // the class: dram, compute, latency, ...
  bool at_hardware_limit = false;
  std::string reason;                // one sentence with the numbers
  std::optional<double> sm_pct;
  std::optional<double> memory_pct;
  std::optional<double> duration_ns;
  std::vector<std::string> occupancy_limiters;
  std::vector<std::string> top_stalls;   // "long_scoreboard 41 %", largest first, at most 3
  std::vector<suggestion> suggestions;   // as the analysis ranked them
};

// Throws kopt::error naming `where` when the analysis has no kernel launch.
diagnosis_digest digest_analysis(const analyze::analysis& analysis, const std::string& where);

// An analysis.json read back through the analysis's own checked reader (a document of another
// schema, a newer version or with a field missing is refused, naming the file), then digested.
diagnosis_digest digest_analysis_file(const std::filesystem::path& file);

}  // namespace kopt::loop
