// kopt: x[N] y[N]
// Class 27, peeking at the grader (the evidence folders): computes nothing and copies into y any
// file of y's size beneath the parent's private folder for this run (where its own outputs and
// the reference's are kept for the verdict; found from its job file). The reference's folder is
// made only after this process has ended, so there is nothing of the reference's to find.
#include "peek.h"

extern "C" void solve(const float* x, float* y, int N) {
  const std::string own = peek::job_field("evidence_dir");
  if (own.empty()) return;
  const peek::fs::path run = peek::fs::path(own).parent_path();
  std::vector<peek::fs::path> theirs;
  for (const auto& file : peek::files_of_size(run, std::uintmax_t(N) * sizeof(float))) {
    if (file.string().rfind(own, 0) != 0) theirs.push_back(file);  // not its own outputs
  }
  peek::take_answer(theirs, y, N);
}
