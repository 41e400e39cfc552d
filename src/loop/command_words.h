#pragma once
// An agent command given as one string (--agent "python3 agent.py --model x") split into argv
// as a POSIX shell splits words (blanks separate; '...' is literal; "..." keeps blanks and
// takes \" \\ \$ \` escapes; a backslash outside quotes escapes the next character), so that
// it can be run without a shell. What only a shell could do (pipes, lists, redirections,
// substitutions, variables) is refused with the reason, never passed on literally.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::loop {

// Throws kopt::error for an empty command, an unterminated quote or an unquoted shell operator.
std::vector<std::string> split_command_words(std::string_view command);

}  // namespace kopt::loop
