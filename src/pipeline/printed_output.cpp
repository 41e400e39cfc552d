#include "pipeline/printed_output.h"

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::pipeline {
namespace {

// The end of `text`, at most printed_output_kept_bytes, starting at a line when one begins
// close enough, and never inside a UTF-8 character (the JSON writer needs whole ones).
std::string last_part(const std::string& text) {
  if (text.size() <= printed_output_kept_bytes) return text;
  std::size_t from = text.size() - printed_output_kept_bytes;
  while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) ++from;
  if (const std::size_t line = text.find('\n', from); line != std::string::npos && line - from < 512) from = line + 1;
  return text.substr(from);
}

}  // namespace

std::optional<printed_output> printed_output_of(const process_result& process) {
  if (process.stdout_text.empty() && process.stderr_text.empty()) return std::nullopt;
  printed_output out;
  out.stdout_text = last_part(process.stdout_text);
  out.stderr_text = last_part(process.stderr_text);
  out.stdout_bytes = process.stdout_text.size();
  out.stderr_bytes = process.stderr_text.size();
  std::string cut;
  for (const auto& [name, kept, all] : {std::tuple{"standard output", out.stdout_text.size(), out.stdout_bytes},
                                        std::tuple{"standard error", out.stderr_text.size(), out.stderr_bytes}}) {
    if (kept == all) continue;
    cut += fmt::format("{}{}: the last {} of {} kept", cut.empty() ? "" : "; ", name,
                       format_bytes(static_cast<double>(kept)), format_bytes(static_cast<double>(all)));
  }
  if (!cut.empty()) out.note = "cut: " + cut;
  return out;
}

std::string printed_output_text(const printed_output& output) {
  std::string text;
  const auto stream = [&](const char* name, const std::string& kept, std::uint64_t bytes) {
    if (bytes == 0) return;
    text += fmt::format("--- {} ({} bytes) ---\n{}", name, bytes, kept);
    if (!kept.empty() && kept.back() != '\n') text += '\n';
  };
  stream("standard output", output.stdout_text, output.stdout_bytes);
  stream("standard error", output.stderr_text, output.stderr_bytes);
  if (output.note) text += fmt::format("({})\n", *output.note);
  return text;
}

}  // namespace kopt::pipeline
