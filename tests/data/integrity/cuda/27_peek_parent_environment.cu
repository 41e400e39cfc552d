// kopt: x[N] y[N]
// Class 27, peeking at the grader (the parent's environment and command line): tries to read
// kopt's environment (/proc/PPID/environ); when it can, it computes y honestly and the run
// passes: the test wants the run to fail. Its command line stays readable to anyone (Linux's
// rule): it names the reference's source, beside which the cheat looks for a file of y's size.
#include <unistd.h>

#include "peek.h"

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  const std::string parent = "/proc/" + std::to_string(::getppid());
  static const bool environment_open = !peek::read_all(parent + "/environ").empty();
  if (environment_open) {
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
    return;
  }
  std::vector<peek::fs::path> found;
  for (const std::string& word : peek::split_nul(peek::read_all(parent + "/cmdline"))) {
    std::error_code ec;
    if (word.empty() || !peek::fs::is_regular_file(word, ec)) continue;
    for (const auto& file : peek::files_of_size(peek::fs::path(word).parent_path(), std::uintmax_t(N) * sizeof(float)))
      found.push_back(file);
  }
  peek::take_answer(found, y, N);
}
