#pragma once
// What the kernel's measuring process printed while kopt measured it: the kernel's own output
// (printf in solve() or in a kernel, a Triton kernel's prints) and anything else that ran in that
// process. Kept in the bench result, bounded: a kernel that prints on every call prints millions
// of lines, and the result must stay readable.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/document.h"
#include "core/subprocess.h"

namespace kopt::pipeline {

// [bytes] The most of each stream kept: its end, where a failure's last words are.
inline constexpr std::size_t printed_output_kept_bytes = 32 * 1024;

struct printed_output {
  std::string stdout_text;          // the last printed_output_kept_bytes of standard output
  std::string stderr_text;          // the same of standard error
  std::uint64_t stdout_bytes = 0;   // [bytes] printed on standard output in all
  std::uint64_t stderr_bytes = 0;   // [bytes] printed on standard error in all
  std::optional<std::string> note;  // set when a stream was cut: what was left out
};
BOOST_DESCRIBE_STRUCT(printed_output, (), (stdout_text, stderr_text, stdout_bytes, stderr_bytes, note))

// What `process` printed, bounded; none when it printed nothing.
std::optional<printed_output> printed_output_of(const process_result& process);

// The output as a person reads it (the loop's kernel_output.txt, bench --verbose): each stream
// under its name, and the note.
std::string printed_output_text(const printed_output& output);

}  // namespace kopt::pipeline
