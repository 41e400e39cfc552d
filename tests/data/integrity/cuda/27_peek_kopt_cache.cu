// kopt: x[N] y[N]
// Class 27, peeking at the grader (kopt's cache): computes nothing and copies into y any file of
// y's size beneath kopt's cache (the reference-timing cache, other measuring processes' folders:
// the cache is the folder two levels above its own result's folder, <cache>/bench/<run>/).
#include "peek.h"

extern "C" void solve(const float* x, float* y, int N) {
  const auto argv = peek::own_arguments();
  if (argv.empty()) return;
  const peek::fs::path own_folder = peek::fs::path(argv.back()).parent_path();
  std::vector<peek::fs::path> found;
  for (const auto& file : peek::files_of_size(own_folder.parent_path().parent_path(), std::uintmax_t(N) * sizeof(float))) {
    if (file.string().rfind(own_folder.string(), 0) != 0) found.push_back(file);
  }
  peek::take_answer(found, y, N);
}
