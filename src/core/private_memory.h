#pragma once
// kopt's own memory and environment, kept from the code it runs (EXPLOITS class 27, peeking at
// the grader): a process of the same user may read another's /proc/PID/mem and /proc/PID/environ,
// or attach to it, when the system's ptrace policy allows it (Yama's ptrace_scope 0, or none).
// A process that is not dumpable (PR_SET_DUMPABLE 0) allows none of this to anyone but root.
// Root reads it anyway: the measuring processes give up root's rights to (inspection_rights.h).

namespace kopt {

// Makes this process not dumpable: no core file, and its /proc/PID/mem, environ, maps and ptrace
// closed to other processes of its user. Its own /proc/self stays readable to it.
void keep_memory_private();

}  // namespace kopt
