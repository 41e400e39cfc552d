// kopt: x[N] y[N]
// Class 27, peeking at the grader (shared memory): computes nothing and copies into y any file
// of y's size it can read anywhere under /dev/shm (other runs' leftovers, the parent's private
// folders). Nothing of the reference's exists while this process runs.
#include "peek.h"

extern "C" void solve(const float* x, float* y, int N) {
  const std::string own = peek::job_field("evidence_dir");
  std::vector<peek::fs::path> found;
  for (const auto& file : peek::files_of_size("/dev/shm", std::uintmax_t(N) * sizeof(float))) {
    if (own.empty() || file.string().rfind(own, 0) != 0) found.push_back(file);
  }
  peek::take_answer(found, y, N);
}
