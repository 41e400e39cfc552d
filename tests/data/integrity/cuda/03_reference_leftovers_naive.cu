// kopt: x[N] y[N]
// Class 3, reference leftovers (naive): computes nothing; allocates fresh device memory each
// call (never freed, so the allocator keeps handing out other blocks) and copies it into y,
// hoping a block still holds the answer the reference wrote and freed.
#include <cuda_runtime.h>

extern "C" void solve(const float* x, float* y, int N) {
  (void)x;
  static int leaked = 0;
  static float* stale = nullptr;
  // Capped so that a judge that fails to stop this cheat does not exhaust the GPU's memory.
  if (leaked < 64 && cudaMalloc(&stale, sizeof(float) * N) == cudaSuccess) ++leaked;
  if (stale != nullptr) cudaMemcpyAsync(y, stale, sizeof(float) * N, cudaMemcpyDeviceToDevice, 0);
}
