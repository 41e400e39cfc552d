#include "tune/tune_result.h"

#include <fmt/format.h>

#include "core/document.h"
#include "core/text_table.h"

namespace kopt::tune {

json to_json(const tune_result& result) {
  return to_document(result);
}

tune_result read_tune_result(const json& document, std::string_view where) {
  try {
    return from_document<tune_result>(document);
  } catch (const document_error& e) {
    throw e.in(std::string(where), "the file is not a tune result of this kopt: run kopt tune again");
  }
}

std::string tune_text(const tune_result& result) {
  std::vector<std::vector<std::string>> rows = {
      {"configuration", "verdict", "median us", "95 % interval us"}};
  for (const measured_configuration& m : result.measured) {
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
  std::string out =
      fmt::format("{}: {} of {} allowed configurations measured ({} strategy; {})\n", result.kernel,
                  result.measured.size(), result.allowed, result.strategy, result.stopped);
  out += format_table(rows);
  if (!result.winner) return out + "no configuration passed the judge\n";
  const tune_winner& w = *result.winner;
  out += fmt::format("winner: {} ({:.3f} us): {}\n", w.configuration, w.median_ms * 1000, w.reason);
  out += fmt::format("tuned kernel: {}\n", w.tuned_file);
  return out;
}

}  // namespace kopt::tune
