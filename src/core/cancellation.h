#pragma once
// Cancelling the work of one thread from another: the MCP server runs a tool call on a worker
// thread and, when the client cancels it, sets the flag; every program that thread starts
// through run_process is then killed (with its process group), and the tool call ends.

#include <atomic>

namespace kopt {

// The flag that cancels the calling thread's work (null: none). Set it for the thread's life.
void set_thread_cancellation(const std::atomic<bool>* flag);
// The calling thread's flag (null: none), for a thread that does part of its work: set it
// there too, so that cancelling the work cancels that part.
const std::atomic<bool>* thread_cancellation();

// Whether the calling thread's work was cancelled.
bool thread_cancelled();
// Whether it can be (a flag is set): waits then look at the flag now and then.
bool thread_cancellable();

}  // namespace kopt
