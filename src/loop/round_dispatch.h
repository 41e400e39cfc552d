#pragma once
// Spreading the candidates of a round over GPUs: each GPU measures one candidate at a time and
// takes the next one as soon as it is free, while everything that touches the run (its
// manifest, its memory, the next hand-out) happens on the calling thread, one finished
// candidate at a time. When an evaluation throws kopt::error and the GPU it ran on no longer
// answers (`gpu_failed`), that GPU is dropped for the rest of the round and its candidate goes
// to another one; when no GPU is left, or the GPU still answers (the error is the run's, not the
// GPU's: a changed snapshot, a swapped library), the error is thrown.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kopt::loop {

// What the calling thread is told of a GPU it stopped using.
struct dropped_gpu {
  int gpu = 0;
  std::size_t candidate = 0;  // the index whose evaluation failed there
  std::string reason;
};

// A candidate's evaluation, started on the calling thread (`start` may read and snapshot the
// run) and run on a thread of its own: `start(index, gpu)` returns the work that thread runs.
using candidate_work = std::function<void()>;

struct round_dispatch {
  std::vector<int> gpus;             // the GPUs the round may use, one candidate at a time each
  std::vector<std::size_t> pending;  // the candidates to evaluate, handed out in this order
  std::function<candidate_work(std::size_t index, int gpu)> start;
  std::function<void(std::size_t index, int gpu)> finish;  // on the calling thread, once its work returned
  std::function<bool(int gpu)> gpu_failed;                 // on the calling thread; empty: never
  std::function<void(const dropped_gpu&)> on_dropped;      // may be empty
};

// Runs the round; returns when every pending candidate finished. Throws the last GPU's
// kopt::error when none is left, after the work running elsewhere has returned (nothing keeps
// running behind the caller's back); an exception other than kopt::error from a candidate's
// work, or anything thrown by `start` or `finish`, is thrown likewise.
void dispatch_round(const round_dispatch& round);

}  // namespace kopt::loop
