// kopt: x[N] y[N]
// Class 15, persisting L2 (naive): every call reserves the largest persisting L2 carve-out and
// pins x in it with an access-policy window, so that a cache flush between samples misses x;
// computes right.
#include <algorithm>

#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static cudaStream_t pinned = nullptr;
  static cudaEvent_t done = nullptr;
  if (pinned == nullptr) {
    cudaStreamCreate(&pinned);
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  }
  int device = 0, max_persisting = 0, max_window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persisting);
  cudaStreamAttrValue attr{};
  attr.accessPolicyWindow.base_ptr = const_cast<float*>(x);
  attr.accessPolicyWindow.num_bytes = std::min<size_t>(sizeof(float) * N, max_window);
  attr.accessPolicyWindow.hitRatio = 1.0f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(pinned, cudaStreamAttributeAccessPolicyWindow, &attr);
  twice<<<(N + 255) / 256, 256, 0, pinned>>>(x, y, N);
  // Joined back into the default stream: this file tests the L2 pinning, not class 12.
  cudaEventRecord(done, pinned);
  cudaStreamWaitEvent(0, done, 0);
}
