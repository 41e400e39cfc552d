// kopt: x[N] y[N]
// Class 23, slow the rival (naive): right answers, but the first call also starts a host
// thread that keeps the whole GPU busy with spinning kernels for 3 s, meant to land on
// whatever is timed next (the reference).
#include <atomic>
#include <chrono>
#include <thread>

#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

// About 1 ms per block at the H200's clock.
__global__ void spin() {
  const long long start = clock64();
  while (clock64() - start < 2'000'000) {
  }
}

// Stopped and joined when the process exits: a launch racing the CUDA runtime's teardown
// would crash the process, and this file tests the stray work, not a crash at exit.
struct spinner {
  std::atomic<bool> stop{false};
  std::thread thread{[this] {
    cudaStream_t stream = nullptr;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (!stop && std::chrono::steady_clock::now() < end) {
      spin<<<1024, 256, 0, stream>>>();
      cudaStreamSynchronize(stream);
    }
  }};
  ~spinner() {
    stop = true;
    thread.join();
  }
};

extern "C" void solve(const float* x, float* y, int N) {
  twice<<<(N + 255) / 256, 256>>>(x, y, N);
  // Started after the first CUDA call, so it is torn down before the runtime is.
  static spinner rival;
}
