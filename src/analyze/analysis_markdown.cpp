#include "analyze/analysis_markdown.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::analyze {
namespace {

constexpr size_t name_chars = 80;      // long template names are cut to keep the file short
constexpr size_t advice_count = 2;
constexpr size_t stall_count = 3;
// Message and source text cuts keep a kernel within about 2 KB with its hot source lines;
// analysis.json has the whole messages and about 100 characters of source.
constexpr size_t advice_chars = 90;
constexpr size_t hot_line_chars = 48;
constexpr double hot_line_min_pct = 1;  // [% of stall samples] smaller shares are noise here

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f} %", *v) : "n/a"; }

// "examples/softmax_naive.cu" for "/work/main/examples/softmax_naive.cu": folder and file name
// find the line; analysis.json keeps the whole path.
std::string short_path(const std::string& path) {
  const std::filesystem::path p(path);
  const std::filesystem::path folder = p.parent_path().filename();
  return (folder.empty() ? p.filename() : folder / p.filename()).string();
}

// The hottest line always, the others from 1 % of the samples up (they come hottest first).
void write_hot_lines(std::string& out, const std::vector<hot_source_line>& lines) {
  if (lines.empty()) return;
  out += "- **Hottest source lines** (% of stall samples, top stall):\n";
  for (size_t i = 0; i < lines.size() && (i == 0 || lines[i].share_pct >= hot_line_min_pct); ++i) {
    const hot_source_line& h = lines[i];
    std::string text = shorten(h.text, hot_line_chars);
    std::replace(text.begin(), text.end(), '`', '\'');  // keeps the code span closed
    out += fmt::format("  - {}:{} {:.0f} % {} `{}`\n", short_path(h.file), h.line, h.share_pct,
                       h.top_stall.empty() ? "-" : h.top_stall, text);
  }
}

std::string roofline_line(const roofline& r) {
  std::vector<std::string> parts;
  const bool tensor = r.tensor_flop && *r.tensor_flop > 0;
  if (tensor && r.tensor_flop_per_s) {
    parts.push_back(fmt::format("tensor {} ({}{})", format_si(*r.tensor_flop_per_s, "FLOP/s"), r.tensor_type,
                                r.peak_tensor_flop_per_s ? fmt::format(", {} of {}", pct(r.compute_pct_of_peak),
                                                                       format_si(*r.peak_tensor_flop_per_s, "FLOP/s"))
                                                         : ""));
  }
  if (r.scalar_flop_per_s) {
    parts.push_back(fmt::format("scalar {}{}", format_si(*r.scalar_flop_per_s, "FLOP/s"),
                                !tensor && r.peak_fp32_flop_per_s
                                    ? fmt::format(" ({} of FP32 {})", pct(r.compute_pct_of_peak), format_si(*r.peak_fp32_flop_per_s, "FLOP/s"))
                                    : ""));
  }
  if (r.dram_bytes_per_s) {
    parts.push_back(fmt::format("DRAM {}{}", format_si(*r.dram_bytes_per_s, "B/s"),
                                r.peak_dram_bytes_per_s ? fmt::format(" ({} of {})", pct(r.dram_pct_of_peak), format_si(*r.peak_dram_bytes_per_s, "B/s")) : ""));
  }
  if (r.arithmetic_intensity) {
    parts.push_back(fmt::format("AI {:.3g} FLOP/B{}", *r.arithmetic_intensity,
                                r.ridge_flop_per_byte ? fmt::format(" (ridge {:.3g}, {} side)", *r.ridge_flop_per_byte, r.bound_by) : ""));
  }
  if (r.headroom) parts.push_back(fmt::format("headroom {:.1f}x", *r.headroom));
  return parts.empty() ? "n/a" : join(parts, " · ");
}

void write_kernel(std::string& out, const kernel_diagnosis& d) {
  const auto& l = d.launch;
  out += fmt::format("\n## [{}] {} — {}{}\n\n", d.launch_id, shorten(d.kernel_name, name_chars), to_string(d.verdict.cls),
                     d.verdict.at_hardware_limit ? " (at hardware limit)" : "");
  out += fmt::format("- **Why:** {}\n", d.verdict.reason);
  out += fmt::format("- **Launch:** grid {} x block {}, {} waves, {} regs/thread, {} shared/block, {}\n",
                     l.grid_size, l.block_size, l.waves_per_sm ? fmt::format("{:.2f}", *l.waves_per_sm) : "n/a",
                     l.registers_per_thread ? fmt::format("{:.0f}", *l.registers_per_thread) : "n/a",
                     l.shared_mem_per_block_bytes ? format_bytes(*l.shared_mem_per_block_bytes) : "n/a",
                     l.duration_ns ? fmt::format("{:.2f} us", *l.duration_ns / 1e3) : "duration n/a");
  out += fmt::format("- **Speed of light:** SM {}, memory {} (DRAM {}, L2 {}, L1 {}; memory unit {})\n", pct(d.sol.sm_pct),
                     pct(d.sol.memory_pct), pct(d.sol.dram_pct), pct(d.sol.l2_pct), pct(d.sol.l1_pct),
                     d.sol.memory_unit.empty() ? "unknown" : d.sol.memory_unit);
  out += fmt::format("- **Roofline:** {}\n", roofline_line(d.roof));
  out += fmt::format("- **Occupancy:** theoretical {}, achieved {}, limiter {}\n", pct(d.occ.theoretical_pct),
                     pct(d.occ.achieved_pct),
                     d.occ.limiters.empty() ? "n/a" : fmt::format("{} ({:.0f} blocks/SM)", join(d.occ.limiters, ", "), d.occ.limit_blocks.value_or(0)));
  std::vector<std::string> stalls;
  for (size_t i = 0; i < d.issue.stalls.size() && i < stall_count; ++i) {
    stalls.push_back(fmt::format("{} {:.0f} %", d.issue.stalls[i].reason, d.issue.stalls[i].share_pct));
  }
  out += fmt::format("- **Issue:** {} inst/cycle per scheduler; stalls {}; busiest pipe {}\n",
                     d.issue.issue_active_per_cycle ? fmt::format("{:.2f}", *d.issue.issue_active_per_cycle) : "n/a",
                     stalls.empty() ? "n/a" : join(stalls, ", "),
                     d.issue.busiest_pipe.empty() ? "n/a" : fmt::format("{} {}", d.issue.busiest_pipe, pct(d.issue.busiest_pipe_pct)));
  write_hot_lines(out, d.hottest_source_lines);
  const auto& m = d.memory;
  // 0 means no global access of that kind (TMA copies, for one, bypass these counters).
  const auto bps = [](const std::optional<double>& v) {
    return !v ? std::string("n/a") : *v == 0 ? std::string("-") : fmt::format("{:.1f}", *v);
  };
  out += fmt::format("- **Memory access:** {} / {} B per 32-B sector (loads / stores); shared conflicts {} / {}; hit L1 {}, L2 {}\n",
                     bps(m.load_bytes_per_sector), bps(m.store_bytes_per_sector), pct(m.shared_load_conflict_pct),
                     pct(m.shared_store_conflict_pct), pct(m.l1_hit_pct), pct(m.l2_hit_pct));
  out += fmt::format("- **Tensor cores:** {}{}\n", d.tensor.instructions.empty() ? "n/a" : d.tensor.instructions,
                     d.tensor.pipe_pct ? fmt::format(" (tensor pipe {})", pct(d.tensor.pipe_pct)) : "");
  if (d.cross_check.available) {
    out += fmt::format("- **ncu SOLBottleneck:** {} ({})\n", d.cross_check.agrees ? "agrees" : "differs",
                       shorten(d.cross_check.ncu_says, advice_chars));
  }
  for (size_t i = 0; i < d.ncu_advice.size() && i < advice_count; ++i) {
    const auto& a = d.ncu_advice[i];
    out += fmt::format("- **ncu {}{}:** {}{}\n", a.type, a.rule.empty() ? "" : " " + a.rule,
                       a.estimated_speedup_pct ? fmt::format("est. {:.0f} % faster. ", *a.estimated_speedup_pct) : "",
                       shorten(a.description, advice_chars));
  }
  if (!d.recommendations.empty()) {
    out += "\nRecommendations (kopt kb show ID for details):\n";
    for (size_t i = 0; i < d.recommendations.size(); ++i) {
      const auto& r = d.recommendations[i];
      out += fmt::format("{}. `{}` {} — tags: {}\n", i + 1, r.id, r.title, join(r.tags, ", "));
    }
  }
  for (const auto& note : d.notes) out += fmt::format("\nNote: {}\n", note);
}

}  // namespace

namespace {
constexpr std::size_t markdown_launch_limit = 20;
}  // namespace

std::string to_markdown(const analysis& a) {
  std::string out = fmt::format("# kopt analysis: {}\n\n", a.report);
  out += fmt::format("Backend {} ({}). ncu rule advice: {}.{}\n", a.backend, a.backend_how,
                     a.details_file.empty() ? "none found" : fmt::format("{} ({})", a.details_file, a.details_format),
                     a.base_units ? "" : " Values were auto-scaled in the CSV and converted to base units.");
  // The markdown is what a person or an agent reads: a whole program's report (thousands of
  // launches) is cut to its longest launches, in report order; the JSON keeps every one.
  std::vector<const kernel_diagnosis*> shown;
  for (const auto& k : a.kernels) shown.push_back(&k);
  if (shown.size() > markdown_launch_limit) {
    std::stable_sort(shown.begin(), shown.end(), [](const kernel_diagnosis* x, const kernel_diagnosis* y) {
      return x->launch.duration_ns.value_or(0) > y->launch.duration_ns.value_or(0);
    });
    shown.resize(markdown_launch_limit);
    std::stable_sort(shown.begin(), shown.end(),
                     [&](const kernel_diagnosis* x, const kernel_diagnosis* y) { return x < y; });  // report order
    out += fmt::format("\nThe report holds {} launches: the {} longest follow; the JSON file has every one.\n",
                       a.kernels.size(), markdown_launch_limit);
  }
  for (const kernel_diagnosis* k : shown) write_kernel(out, *k);
  return out;
}

}  // namespace kopt::analyze
