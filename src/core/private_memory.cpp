#include "core/private_memory.h"

#include <sys/prctl.h>

namespace kopt {

// It cannot fail for a process that asks it of itself (prctl(2)): there is nothing to report.
void keep_memory_private() { ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

}  // namespace kopt
