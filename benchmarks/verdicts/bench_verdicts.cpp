// The loop's verdict on two bench results, for the verdict benchmark: the candidate's kernel
// against the incumbent's, through the same code the loop uses (loop::compare_bench_results).
//   bench_verdicts CANDIDATE.json INCUMBENT.json   ->  one JSON line: outcome, ratio, interval, margin
#include <cstdio>

#include "core/error.h"
#include "core/json_io.h"
#include "loop/version_evaluation.h"
#include "memory/strategy_outcome.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_verdicts CANDIDATE.json INCUMBENT.json\n");
    return 2;
  }
  try {
    const auto verdict = kopt::loop::compare_bench_results(kopt::read_json_file(argv[1]), kopt::read_json_file(argv[2]));
    std::printf("%s\n", kopt::json_text(kopt::memory::to_json(verdict), -1).c_str());
    return 0;
  } catch (const kopt::error& e) {
    std::fprintf(stderr, "bench_verdicts: %s\n", e.headline().c_str());
    return 2;
  }
}
