#pragma once
// Work items spread over GPUs (a loop round's candidates, the comparisons or benches of one
// command): each GPU runs one item at a time and takes the next as soon as it is free, while
// everything that touches shared state (a run's manifest, its memory, the next hand-out, what
// is printed) happens on the calling thread, one finished item at a time. When an item throws
// kopt::error and the GPU it ran on no longer answers (`gpu_failed`), that GPU is dropped for
// the rest of the dispatch and its item goes to another one; when no GPU is left, or the GPU
// still answers (the error is the item's, not the GPU's: a changed snapshot, a swapped
// library), the error is thrown.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kopt::pipeline {

// What the calling thread is told of a GPU it stopped using.
struct dropped_gpu {
  int gpu = 0;
  std::size_t item = 0;  // the index of the item that failed there
  std::string reason;
};

// An item's work, started on the calling thread (`start` may read and snapshot shared state)
// and run on a thread of its own: `start(index, gpu)` returns the work that thread runs.
using gpu_work = std::function<void()>;

struct gpu_dispatch {
  std::vector<int> gpus;             // the GPUs to use, one item at a time each
  std::vector<std::size_t> pending;  // the items to run, handed out in this order
  std::function<gpu_work(std::size_t index, int gpu)> start;
  std::function<void(std::size_t index, int gpu)> finish;  // on the calling thread, once its work returned
  std::function<bool(int gpu)> gpu_failed;                 // on the calling thread; empty: never
  std::function<void(const dropped_gpu&)> on_dropped;      // may be empty
};

// Returns when every pending item finished. Throws the last GPU's kopt::error when none is
// left, after the work running elsewhere has returned (nothing keeps running behind the
// caller's back); an exception other than kopt::error from an item's work, or anything thrown
// by `start` or `finish`, is thrown likewise.
void dispatch_on_gpus(const gpu_dispatch& dispatch);

}  // namespace kopt::pipeline
