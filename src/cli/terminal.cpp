#include "cli/terminal.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include <fmt/format.h>

namespace kopt::cli {
namespace {

constexpr std::array<std::string_view, 9> good_words = {"ok", "passed", "positive", "baseline", "ready",
                                                        "built", "cache_hit", "clean", "best"};
constexpr std::array<std::string_view, 9> bad_words = {"failed", "negative", "rejected", "FAIL",    "error",
                                                       "not ready", "errors", "crashed", "tampered"};
constexpr std::array<std::string_view, 6> unsettled_words = {"neutral", "inconclusive", "warn",
                                                             "skipped", "--",           "unverified"};

template <std::size_t n>
bool one_of(const std::array<std::string_view, n>& words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace

bool colour_allowed(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr) return false;  // set at all, even empty: the convention is presence
  return ::isatty(::fileno(stream)) == 1;
}

std::string paint_status(std::string_view word, bool colour) {
  if (!colour) return std::string(word);
  const char* code = one_of(good_words, word)        ? "32"
                     : one_of(bad_words, word)       ? "31"
                     : one_of(unsettled_words, word) ? "33"
                                                     : nullptr;
  if (code == nullptr) return std::string(word);
  return fmt::format("\033[1;{}m{}\033[0m", code, word);
}

std::function<void(const std::string& step)> progress_on_terminal(const std::string& command, bool wanted) {
  if (!wanted || ::isatty(STDERR_FILENO) != 1) return {};
  return [command](const std::string& step) { std::fprintf(stderr, "kopt %s: %s\n", command.c_str(), step.c_str()); };
}

void add_verbosity_flags(CLI::App& sub, verbosity& level, bool with_verbose) {
  sub.add_flag_callback("--quiet,-q", [&level] { level = verbosity::quiet; },
                        "print only errors and the final result line");
  if (with_verbose) {
    sub.add_flag_callback("--verbose,-v", [&level] { level = verbosity::verbose; }, "also print the details");
  }
}

void add_output_flags(CLI::App& sub, output_choice& output, const std::string& json_help, bool with_verbose) {
  sub.add_flag("--json", output.json, json_help);
  add_verbosity_flags(sub, output.level, with_verbose);
}

void printer::line(const std::string& text) const {
  if (m_level != verbosity::quiet) std::fputs((text + "\n").c_str(), stdout);
}

void printer::detail(const std::string& text) const {
  if (m_level == verbosity::verbose) std::fputs((text + "\n").c_str(), stdout);
}

void printer::result(const std::string& text) const { std::fputs((text + "\n").c_str(), stdout); }

}  // namespace kopt::cli
