// kopt: x[N] y[N]
// Class 13, host thread (adaptive): synchronous and right on the first 3 calls; afterwards
// hands the launch to a detached thread that fires 1 ms after solve() returned.
#include <atomic>
#include <chrono>
#include <thread>

#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

// Waits at exit for the launches still to come: a launch racing the CUDA runtime's teardown
// would crash the process, and this file tests the late launch, not a crash at exit.
struct launches_in_flight {
  std::atomic<int> count{0};
  launches_in_flight() { cudaFree(nullptr); }  // the runtime first, so it is torn down after this
  ~launches_in_flight() {
    while (count > 0) std::this_thread::yield();
  }
};

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  static launches_in_flight pending;
  if (++calls <= 3) {
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
    return;
  }
  ++pending.count;
  std::thread([x, y, N] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
    --pending.count;
  }).detach();
}
