#pragma once
// Work that can wait until a command's answer is out: freeing what the verdict needed (both
// sides' kept outputs, gigabytes for a large output). A kopt that serves many commands (the
// warm worker) runs it right after telling its client the exit status, before it takes the
// next command; any other kopt runs it at once, before the command ends.

#include <functional>

namespace kopt {

// Runs `task` now, or keeps it for run_after_the_answer() in a process that defers.
void after_the_answer(std::function<void()> task);

// From now on this process keeps such work until run_after_the_answer() (the warm worker).
void defer_until_answered();

// Runs, in order, and forgets what was kept. A task that throws is not the client's concern
// any more: the others run all the same.
void run_after_the_answer();

}  // namespace kopt
