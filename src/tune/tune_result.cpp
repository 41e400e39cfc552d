#include "tune/tune_result.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/document.h"
#include "core/text_table.h"

namespace kopt::tune {

json to_json(const tune_result& result) {
  return to_document(result);
}

tune_result read_tune_result(const json& document, std::string_view where) {
  return read_document<tune_result>(document, std::string(where),
                                    "the file is not a tune result of this kopt: run kopt tune again");
}

namespace {

std::string measured_table(const std::vector<measured_configuration>& measured) {
  std::vector<std::vector<std::string>> rows = {
      {"configuration", "verdict", "median us", "95 % interval us"}};
  for (const measured_configuration& m : measured) {
    // The table keeps a reason to its first line and 72 characters; the result keeps it whole.
    std::string reason = m.reason.substr(0, m.reason.find('\n'));
    if (reason.size() > 72) reason = reason.substr(0, 69) + "...";
    const std::string verdict =
        m.passed() ? (m.cached ? "passed (cached)" : "passed") : m.status + ": " + reason;
    rows.push_back({m.configuration, verdict, m.median_ms ? fmt::format("{:.3f}", *m.median_ms * 1000) : "",
                    m.median_ci95_ms ? fmt::format("{:.3f}-{:.3f}", (*m.median_ci95_ms)[0] * 1000,
                                                   (*m.median_ci95_ms)[1] * 1000)
                                     : ""});
  }
  return format_table(rows);
}

std::string winner_text(const std::optional<tune_winner>& winner) {
  if (!winner) return "no configuration passed the judge\n";
  return fmt::format("winner: {} ({:.3f} us): {}\ntuned kernel: {}\n", winner->configuration,
                     winner->median_ms * 1000, winner->reason, winner->tuned_file);
}

std::string flags_of(const std::vector<std::string>& dimensions) {
  std::string out;
  for (const std::string& d : dimensions) out += (out.empty() ? "--" : " --") + d;
  return out;
}

// A winner's cell at one shape: its median there (* where it won), "failed", or "-" when that
// shape's search did not measure it.
std::string cell(const std::string& configuration, const std::vector<measured_configuration>& measured,
                 const std::optional<tune_winner>& winner) {
  for (const measured_configuration& m : measured) {
    if (m.configuration != configuration) continue;
    if (!m.passed()) return m.status;
    const bool won = winner && winner->configuration == configuration;
    return fmt::format("{:.3f}{}", *m.median_ms * 1000, won ? " *" : "");
  }
  return "-";
}

// Which configuration wins where: every shape's winner, with its median at every shape [us].
std::string winners_by_shape(const tune_result& result) {
  std::vector<std::string> winners;
  const auto add = [&](const std::optional<tune_winner>& w) {
    if (w && std::find(winners.begin(), winners.end(), w->configuration) == winners.end())
      winners.push_back(w->configuration);
  };
  add(result.winner);
  for (const shape_result& s : result.shapes) add(s.winner);
  std::vector<std::vector<std::string>> rows = {{"median us (* wins there)", flags_of(result.dimensions)}};
  for (const shape_result& s : result.shapes) rows[0].push_back(s.shape);
  for (const std::string& w : winners) {
    std::vector<std::string> row = {w, cell(w, result.measured, result.winner)};
    for (const shape_result& s : result.shapes) row.push_back(cell(w, s.measured, s.winner));
    rows.push_back(row);
  }
  return format_table(rows);
}

}  // namespace

std::string tune_text(const tune_result& result) {
  std::string out =
      fmt::format("{}: {} of {} allowed configurations measured ({} strategy; {})\n", result.kernel,
                  result.measured.size(), result.allowed, result.strategy, result.stopped);
  out += measured_table(result.measured) + winner_text(result.winner);
  for (const shape_result& s : result.shapes) {
    out += fmt::format("\nat {}: {} of {} allowed configurations measured ({})\n", s.shape, s.measured.size(),
                       s.allowed, s.stopped);
    out += measured_table(s.measured) + winner_text(s.winner);
  }
  if (!result.shapes.empty()) out += "\nwhich configuration wins where:\n" + winners_by_shape(result);
  return out;
}

}  // namespace kopt::tune
