// kopt: x[N] y[N]
// Class 23, slow the rival (adaptive): right answers, and (once past the first 3 calls) every
// call leaves device-wide state changed behind it, so that whichever call turns out to be its
// last leaves the largest persisting L2 carve-out (less ordinary L2 for the next program), a
// large per-thread stack reservation and a shared-memory-preferring cache configuration.
#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  twice<<<(N + 255) / 256, 256>>>(x, y, N);
  if (++calls <= 3) return;
  int device = 0, max_persisting = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persisting);
  cudaDeviceSetLimit(cudaLimitStackSize, 64 * 1024);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
}
