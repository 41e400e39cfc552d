#pragma once
// Two pieces of work at once: one on a helper thread (it inherits the calling thread's
// cancellation, core/cancellation.h), the other here; both end before this returns, and the
// helper's exception, else this thread's, is rethrown. For work that waits on programs (an ncu
// export, a comparison's measuring processes) and does not need the same resource.

#include <functional>

namespace kopt {

void run_alongside(const std::function<void()>& on_helper_thread, const std::function<void()>& here);

}  // namespace kopt
