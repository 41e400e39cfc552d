#include "loop/proposal.h"

#include <fmt/format.h>

#include "core/text.h"
#include "loop/strategy_tags.h"

namespace kopt::loop {
namespace {

std::string percent(const std::optional<double>& value) {
  return value ? fmt::format("{:.1f} %", *value) : std::string("n/a");
}

void diagnosis_section(std::string& md, const proposal_inputs& in) {
  const diagnosis_digest& d = in.diagnosis;
  md += fmt::format("## Diagnosis of v{} (iter_v{}/analysis.md)\n\n", in.best_iteration, in.best_iteration);
  md += fmt::format("- slowest kernel: `{}`\n", d.kernel_name);
  md += fmt::format("- bottleneck: **{}**{}: {}\n", d.bottleneck,
                    d.at_hardware_limit ? " (at the hardware limit)" : "", d.reason);
  md += fmt::format("- speed of light: SM {}, memory {}\n", percent(d.sm_pct), percent(d.memory_pct));
  if (!d.occupancy_limiters.empty())
    md += fmt::format("- occupancy limited by: {}\n", join(d.occupancy_limiters, ", "));
  if (!d.top_stalls.empty()) md += fmt::format("- top stall reasons: {}\n", join(d.top_stalls, ", "));
  md += "\n";
}

void suggestions_section(std::string& md, const proposal_inputs& in) {
  md += "## Ranked suggestions\n\n";
  if (in.suggestions.empty()) md += "The knowledge base has no suggestion for this diagnosis.\n";
  int rank = 1;
  for (const ranked_suggestion& s : in.suggestions) {
    md += fmt::format("{}. {}{} (`kopt kb show {}`), tags: {}\n", rank++, s.entry.title,
                      s.blocked ? " **(blocked: this exact strategy was slower or failed here)**" : "",
                      s.entry.id, join(s.entry.tags, ", "));
    md += fmt::format("   - why: {}\n", s.entry.why);
    if (!s.memory_note.empty()) md += fmt::format("   - memory: {}\n", s.memory_note);
  }
  md += "\n";
}

void strategies_section(std::string& md, const char* title, const char* empty,
                        const std::vector<known_strategy>& strategies) {
  md += fmt::format("## {}\n\n", title);
  if (strategies.empty()) md += fmt::format("{}\n", empty);
  for (const known_strategy& s : strategies) {
    md += fmt::format("- `{}`: {} ({})\n", s.fingerprint, join(s.tags, ", "), s.why);
  }
  md += "\n";
}

}  // namespace

std::string shapes_section(std::int64_t next_iteration, const std::string& benchmarked_dims,
                           const std::vector<std::string>& check_dims) {
  if (check_dims.empty()) return "";
  std::string md = "## Shapes that must also pass\n\n";
  md += fmt::format("v{} is timed at `{}` and must also pass the judge (validation only) at:\n\n",
                    next_iteration, benchmarked_dims);
  for (const auto& shape : check_dims) md += fmt::format("- `{}`\n", shape);
  md +=
      "\nA version that fails at one of them is rejected and its strategy blocked: do not assume a size that "
      "only "
      "the benchmarked shape has (a multiple of the block, of 4, of 1024).\n\n";
  return md;
}

std::string proposal_markdown(const proposal_inputs& in) {
  std::string md = fmt::format("# Optimization proposal for v{}\n\n", in.next_iteration);
  md += fmt::format(
      "Build v{} from **{}**, the best version so far (v{}: {:.6g} ms{}). A strategy is judged "
      "against the version it was built from.\n\n",
      in.next_iteration, in.best_snapshot, in.best_iteration, in.best_median_ms,
      in.best_speedup.empty() ? "" : ", " + in.best_speedup);
  if (!in.best_tuned.empty()) {
    md += fmt::format(
        "Its tune parameters were tuned, and their values are written into it: {}. Declare parameters "
        "with tune(...) and kopt loop --tune searches them for the next version too.\n\n",
        in.best_tuned);
  }
  md += shapes_section(in.next_iteration, in.benchmarked_dims, in.check_dims);
  diagnosis_section(md, in);
  suggestions_section(md, in);
  strategies_section(
      md, "Blocked strategies",
      "None. A strategy that is slower or fails is blocked in this scope; reusing it rejects the "
      "iteration without measuring it.",
      in.blocked);
  strategies_section(md, "Preferred strategies", "None yet in this scope.", in.preferred);
  md += "## Plan\n\n<!-- what you change and why, in terms of the diagnosis above -->\n\n";
  md += fmt::format("{}\n\n", strategy_tags_heading);
  md += "<!-- one tag per line, e.g. \"- vectorized_float4_io\": the strategy v";
  md += fmt::format("{} applies; the memory keys its outcome by these tags -->\n", in.next_iteration);
  return md;
}

}  // namespace kopt::loop
