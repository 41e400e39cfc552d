#include "loop/run_summaries.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/document.h"
#include "core/text.h"
#include "measure/interval_text.h"

namespace kopt::loop {
namespace {

std::string ms(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : "n/a";
}

std::string interval(const std::optional<measure::interval_bounds>& bounds) {
  return measure::interval_text(bounds, "{:.6g}");
}

std::string speedup(const std::optional<double>& value) {
  return value ? fmt::format("{:.3f}x", *value) : "n/a";
}

std::string comparison_line(const version_record& r, const std::string& name) {
  if (!r.comparison) return "";
  const version_comparison& c = *r.comparison;
  return fmt::format("median ratio {}/v{} = {:.4f}, 95 % interval {}, margin ±{:.2f} %", name,
                     r.parent.value_or(0), c.ratio, interval(c.ratio_ci95), 100 * c.margin);
}

std::string tags_text(const version_record& r) {
  return r.tags.empty() ? "(none given)" : join(r.tags, ", ");
}

// "`--rows=1000 --cols=1000` passed; `--rows=7 --cols=3` not run"
std::string checks_text(const version_record& r) {
  std::vector<std::string> parts;
  for (const auto& c : r.checks) {
    parts.push_back(
        fmt::format("`{}` {}{}", c.dims, c.status, c.reason.empty() ? "" : " (" + c.reason + ")"));
  }
  return join(parts, "; ");
}

// "bench 5.1 s, profile 7.9 s, analyze 0.02 s, compare 1.8 s". No total: the comparison runs
// while the profile exports, so its time is in both.
std::string step_times_text(const json& step_seconds) {
  std::vector<std::string> parts;
  for (const char* step : {"bench", "check_dims", "profile", "analyze", "compare"}) {
    if (!step_seconds.contains(step)) continue;
    const double s = step_seconds[step].get<double>();
    parts.push_back(fmt::format("{} {:.{}f} s", step, s, s < 0.1 ? 2 : 1));
  }
  return join(parts, ", ");
}

// The lines a version's summary shares with a candidate's.
std::string version_lines(const run_manifest& m, const version_record& r, const std::string& name) {
  std::string md = fmt::format("- version: `{}` (sha256 {})\n", r.snapshot, r.source_sha256.substr(0, 16));
  if (r.tuned)
    md += fmt::format("- tuned values (kopt loop --tune, written into the version): {}\n",
                      tuned_text(*r.tuned));
  md += fmt::format("- strategy tags: {}{}\n", tags_text(r),
                    r.fingerprint.empty() ? "" : " (`" + r.fingerprint + "`)");
  md += fmt::format("- outcome: **{}**: {}\n", r.outcome, r.reason);
  if (r.parent) {
    md +=
        fmt::format("- compared with: v{} (the best when it ran); {}\n", *r.parent, comparison_line(r, name));
  }
  md += fmt::format("- kernel median: {} ms, 95 % interval {}\n", ms(r.median_ms),
                    interval(measure::interval_of(r.median_ci95_ms)));
  if (!m.reference.empty()) {
    md += fmt::format("- reference median: {} ms; speedup {}\n", ms(r.reference_median_ms),
                      speedup(r.speedup_vs_reference));
  }
  if (!r.checks.empty()) {
    md += fmt::format("- extra shapes (the judge, validation only): {}\n", checks_text(r));
  }
  if (!r.bottleneck.empty()) {
    md += fmt::format("- bottleneck: {}{} (analysis.md)\n", r.bottleneck,
                      r.at_hardware_limit ? ", at the hardware limit" : "");
  } else if (r.eligible && r.parent && r.outcome != version_outcome::positive) {
    md += "- profile: skipped, not faster than the version it was compared with\n";
  }
  md += fmt::format("- passed the judge: {}\n", r.eligible ? "yes" : "no");
  if (!r.step_seconds.empty()) md += fmt::format("- wall time: {}\n", step_times_text(r.step_seconds));
  return md;
}

std::string candidate_name(std::int64_t iteration, const candidate_record& c) {
  return fmt::format("v{} cand_{}", iteration, c.candidate);
}

// One row of the final summary's table.
std::string row(const std::string& v, const version_record& r, const std::string& outcome) {
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", v, tags_text(r), outcome, ms(r.median_ms),
                     interval(measure::interval_of(r.median_ci95_ms)), speedup(r.speedup_vs_reference),
                     r.bottleneck, r.reason);
}

}  // namespace

std::optional<double> fast_p(const run_manifest& m, double p) {
  if (m.reference.empty() || m.iterations.empty()) return std::nullopt;
  std::size_t fast = 0;
  for (const iteration_record& r : m.iterations) {
    // A round's own fields are its chosen candidate's.
    if (r.outcome != version_outcome::rejected && r.speedup_vs_reference && *r.speedup_vs_reference > p)
      ++fast;
  }
  return static_cast<double>(fast) / static_cast<double>(m.iterations.size());
}

std::string commands_block(const std::vector<std::string>& commands) {
  return "```\n" + join(commands, "\n") + "\n```\n";
}

std::string commands_markdown(const std::vector<std::string>& commands) {
  return "\n## Commands\n\nThis version's measurements, again:\n\n" + commands_block(commands);
}

std::string iteration_summary_markdown(const run_manifest& m, const iteration_record& r) {
  std::string md = fmt::format("# Iteration v{} of {}\n\n", r.iteration, m.run_id);
  if (!r.candidates.empty()) {
    md += fmt::format(
        "A round of {} candidates, each judged, timed, profiled and compared with the same best version; "
        "their evidence is in cand_J/. This iteration's record and files are cand_{}'s.\n\n",
        r.candidates.size(), r.chosen_candidate.value_or(0));
    md += "| candidate | strategy tags | outcome | median ms | reason |\n|---|---|---|---|---|\n";
    for (const auto& c : r.candidates) {
      md += fmt::format("| cand_{} | {} | {}{} | {} | {} |\n", c.candidate, tags_text(c), c.outcome,
                        r.chosen_candidate == c.candidate ? " (chosen)" : "", ms(c.median_ms), c.reason);
    }
    md += "\n";
  }
  md += version_lines(m, r, fmt::format("v{}", r.iteration));
  md += fmt::format("- best after this iteration: {}\n", m.best ? fmt::format("v{}", *m.best) : "none yet");
  return md;
}

std::string candidate_summary_markdown(const run_manifest& m, std::int64_t iteration,
                                       const candidate_record& c) {
  std::string md = fmt::format("# Candidate {} of iteration v{} of {}\n\n", c.candidate, iteration, m.run_id);
  md += version_lines(m, c, candidate_name(iteration, c));
  md += "- the round's choice: iteration_summary.md in the iteration's folder, once the round is closed\n";
  return md;
}

std::string final_summary_markdown(const run_manifest& m, const std::vector<std::string>& reproduce) {
  std::string md = fmt::format("# {}: {}\n\n", m.run_id, m.kernel);
  md += fmt::format("Backend {}, {}, dimensions `{}`, reference {}. {} of at most {} iterations after v0.\n",
                    m.backend, m.arch, join(m.frozen.dims, " "),
                    m.reference.empty() ? "none" : "`" + m.reference + "`",
                    m.iterations.empty() ? 0 : m.iterations.size() - 1, m.max_iterations);
  if (!m.frozen.check_dims.empty()) {
    md += fmt::format("Every version was also judged (validation only) at: `{}`.\n",
                      join(m.frozen.check_dims, "`, `"));
  }
  md += "\n";
  const iteration_record* baseline = m.find(0);
  const iteration_record* best = m.best ? m.find(*m.best) : nullptr;
  md += "## Baseline and best\n\n";
  if (baseline) md += fmt::format("- v0: {} ms ({})\n", ms(baseline->median_ms), baseline->outcome);
  if (best) {
    md += fmt::format("- best: v{} `{}`: {} ms, speedup over the reference {}", best->iteration,
                      best->snapshot, ms(best->median_ms), speedup(best->speedup_vs_reference));
    if (baseline && baseline->median_ms && best->median_ms && *best->median_ms > 0) {
      md += fmt::format(", {:.3f}x v0", *baseline->median_ms / *best->median_ms);
    }
    md += fmt::format(
        "\n- the best version's reports: iter_v{0}/benchmark_result.json, iter_v{0}/full.ncu-rep, "
        "iter_v{0}/analysis.md{1}\n",
        best->iteration,
        best->chosen_candidate
            ? fmt::format(" (candidate {}'s, from iter_v{}/cand_{}/)", *best->chosen_candidate,
                          best->iteration, *best->chosen_candidate)
            : "");
  } else {
    md += "- no eligible version yet (none passed the judge with a full profile)\n";
  }
  md +=
      "\n## Iterations\n\nA round of candidates has one row per candidate (`v cand_J`); its evidence is in "
      "iter_vK/cand_J/.\n\n"
      "| v | strategy tags | outcome | median ms | 95 % interval | speedup | bottleneck | reason |\n"
      "|---|---|---|---|---|---|---|---|\n";
  std::vector<std::string> unsettled;
  std::vector<std::string> worked;
  const auto note = [&](const std::string& name, const version_record& r) {
    if (r.outcome == version_outcome::neutral || r.outcome == version_outcome::inconclusive) {
      unsettled.push_back(fmt::format("{} {} ({})", name, r.outcome, comparison_line(r, name)));
    }
    if (r.outcome == version_outcome::positive) worked.push_back(fmt::format("{} ({})", tags_text(r), name));
  };
  for (const auto& r : m.iterations) {
    if (r.candidates.empty()) {
      md += row(std::to_string(r.iteration), r, enum_name(r.outcome));
      note(fmt::format("v{}", r.iteration), r);
    }
    for (const auto& c : r.candidates) {
      const std::string name = candidate_name(r.iteration, c);
      md += row(fmt::format("{} cand_{}", r.iteration, c.candidate), c,
                enum_name(c.outcome) + (r.chosen_candidate == c.candidate ? " (chosen)" : ""));
      note(name, c);
    }
  }
  if (!unsettled.empty()) md += "\nNot a win, not a loss: " + join(unsettled, "; ") + ".\n";
  if (!m.reference.empty()) {
    md += fmt::format(
        "\nfast_p (share of iterations correct and faster than the reference by p): fast_1.0 = {:.2f}, "
        "fast_1.5 = {:.2f}, fast_2.0 = {:.2f}\n",
        fast_p(m, 1.0).value_or(0), fast_p(m, 1.5).value_or(0), fast_p(m, 2.0).value_or(0));
  }
  if (!m.superseded.empty()) {
    md += "\nRedone (kept, superseded):\n";
    for (const auto& r : m.superseded) {
      md +=
          fmt::format("- v{} attempt {} ({}): {}: {}\n", r.iteration, r.attempt,
                      std::filesystem::path(r.snapshot).parent_path().generic_string(), r.outcome, r.reason);
    }
  }
  md += "\n## Memory\n\n";
  if (m.blocked.empty()) md += "No strategy was blocked in this run.\n";
  for (const auto& fp : m.blocked) md += fmt::format("- blocked: `{}`\n", fp);
  for (const auto& w : worked) md += fmt::format("- worked: {}\n", w);
  md += fmt::format("\nOutcomes are in the strategy memory `{}` (`kopt memory list`).\n", m.memory_db);
  md += "\n## Reproduce\n\n" + commands_block(reproduce);
  return md;
}

}  // namespace kopt::loop
