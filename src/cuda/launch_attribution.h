#pragma once
// Which host call issued each piece of GPU work. CUPTI's callback API sees every CUDA runtime
// and driver call as it is entered, with the correlation id that the activity records of the
// work it enqueued carry. The harness opens a window around each solve() call; work whose
// issuing call was made outside every window, by a thread other than the harness's, was
// launched behind the judge's back (a detached thread, a call deferred past solve()'s return)
// and is never counted as part of a call.

#include <cstdint>
#include <optional>
#include <string>

namespace kopt::cuda {

struct api_origin {
  std::uint64_t window = 0;     // the solve() call open when the API call was made; 0: none
  bool harness_thread = false;  // made by the thread that opens the windows
  std::string function;         // "cudaLaunchKernel", "cuMemcpyHtoD_v2", ...
};

class launch_attribution {
 public:
  // Subscribes to CUPTI's runtime and driver API callbacks (once per process); the calling
  // thread is the harness's. nullptr when that is refused (another tool already subscribed);
  // `problem` then says why.
  static launch_attribution* start(std::string* problem);

  // From the harness thread: API calls from now on belong to call `window` (> 0).
  void open_window(std::uint64_t window);
  void close_window();

  // Where the API call with this correlation id came from; nothing when CUPTI never reported
  // it (work issued before the subscription).
  std::optional<api_origin> origin(std::uint32_t correlation) const;

  // Forgets every recorded call (the start of a new timing run).
  void clear();

 private:
  launch_attribution() = default;
};

}  // namespace kopt::cuda
