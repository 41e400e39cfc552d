#pragma once
// How kopt's commands talk to a person at a terminal, in one place: how much to say (--quiet:
// errors and the final result line only; --verbose: what a command has besides its summary)
// and colour, only when the stream is a terminal and NO_COLOR is not set (whatever its value),
// so that a pipe, a file or a CI log never gets escape codes.

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace kopt::cli {

enum class verbosity { quiet, normal, verbose };

// True when escape codes may go to `stream`: it is a terminal and NO_COLOR is unset.
bool colour_allowed(std::FILE* stream);

// The colour a status word gets by its meaning: success (ok, passed, positive, ready, ...)
// green, failure (failed, negative, rejected, FAIL, error, ...) red, neither (neutral,
// inconclusive, warn, skipped) yellow; other words none. The word is returned unchanged
// without colour.
std::string paint_status(std::string_view word, bool colour);

// Declares --quiet on `sub`, and --verbose when the command has more to say; both land in
// `level` (given together, the last one wins).
void add_verbosity_flags(CLI::App& sub, verbosity& level, bool with_verbose);

// What a command prints: its JSON document (--json), or text at a verbosity.
struct output_choice {
  bool json = false;
  verbosity level = verbosity::normal;
  // The command prints its text summary (not --json, not --quiet): then, and only then, a long
  // step's progress and the findings that belong to the summary are shown too.
  bool prints_summary() const { return !json && level != verbosity::quiet; }
};

// Declares --json (with the command's own words for what it prints) and the verbosity flags.
void add_output_flags(CLI::App& sub, output_choice& output, const std::string& json_help, bool with_verbose);

// Where a long step announces itself as it begins ("kopt bench: the reference's measuring
// process: ..."): standard error, only when it is a terminal (a pipe, a file or an agent's log
// gets nothing) and `wanted` (not --quiet, not --json). An empty function otherwise.
std::function<void(const std::string& step)> progress_on_terminal(const std::string& command, bool wanted);

// A command's printer on standard output.
class printer {
 public:
  explicit printer(verbosity level = verbosity::normal, bool colour = colour_allowed(stdout))
      : m_level(level), m_colour(colour) {}

  // The summary a command prints by default: left out with --quiet.
  void line(const std::string& text) const;
  // Only with --verbose.
  void detail(const std::string& text) const;
  // The final result line: always printed.
  void result(const std::string& text) const;
  // A status word, painted when colour is on.
  std::string status(std::string_view word) const { return paint_status(word, m_colour); }

  bool quiet() const { return m_level == verbosity::quiet; }
  bool verbose() const { return m_level == verbosity::verbose; }

 private:
  verbosity m_level;
  bool m_colour;
};

}  // namespace kopt::cli
