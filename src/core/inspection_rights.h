#pragma once
// The rights a root process has to read other processes' memory, given up by a measuring
// process of code under test (EXPLOITS class 27, peeking at the grader). Where kopt runs as
// root, keep_memory_private() (private_memory.h) and Landlock do not close kopt's /proc/PID/mem,
// maps and environ to the code it runs: seen on the H200 and on a CPU machine, a root process
// under Landlock read them, and so did one holding CAP_SYS_PTRACE, CAP_SYS_ADMIN or CAP_PERFMON
// alone. A process that holds none of the three, and fewer capabilities than the process it
// targets (Linux refuses a reader whose permitted set is not a superset of its target's), reads
// neither a dumpable nor a non-dumpable one. A process started by another measuring process
// (kopt's Python runner under a kernel's `kopt harness`) gives up every capability, so that it
// holds fewer than its parent, which gave up only these three.
// For a user other than root there is nothing to give up: the calls change nothing.

#include <string>

namespace kopt {

enum class rights_kept {
  none_for_inspection,   // CAP_SYS_PTRACE, CAP_SYS_ADMIN and CAP_PERFMON given up
  profiling_for_admins,  // as above but CAP_SYS_ADMIN and CAP_PERFMON kept: profiled where the
                         // driver lets only administrators read the GPU's counters
};

// Gives up the rights above in this process and in every program it starts from now on (the
// bounding and ambient sets too). Returns "; without CAP_..." for the sandbox's description, or
// "" when there was nothing to give up (not root). Never throws: a refusal is described.
std::string give_up_inspection_rights(rights_kept kept);

// Whether this machine's NVIDIA driver lets only administrators read the GPU's performance
// counters (RmProfilingAdminOnly: 1 in /proc/driver/nvidia/params); false where it cannot tell.
bool profiling_restricted_to_admins();

}  // namespace kopt
