#pragma once
// What /proc says of one process: its parent, process group and state, and whether it has
// ended. Processes come and go while they are looked at: a process that is gone reads as such,
// never as an error.

#include <sys/types.h>

#include <string>

namespace kopt {

// The text of /proc/PID/NAME, or "" when the process has gone meanwhile.
std::string process_file_text(const std::string& pid, const std::string& name);

struct process_ids {
  pid_t parent = -1;
  pid_t group = -1;
  char state = 0;  // 'R', 'S', 'Z' (a zombie: ended, not reaped) ...; 0 when the process is gone
};

// From /proc/PID/stat ("pid (comm) state ppid pgrp ..."; the command name may hold spaces and
// parentheses, so the fields are read after its last ')').
process_ids read_process_ids(const std::string& pid);

// Whether a process in `state` has left exec() and everything else behind: gone (0), a zombie
// or dead. Its first thread, that is: the others may still run (process_has_ended).
bool first_thread_ended(char state);

// Whether process `pid` has ended: gone, or a zombie nobody reaped yet with no thread left
// running (so its descriptors, a listening socket among them, are closed).
bool process_has_ended(const std::string& pid);

}  // namespace kopt
