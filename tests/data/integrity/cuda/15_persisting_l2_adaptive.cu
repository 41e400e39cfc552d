// kopt: x[N] y[N]
// Class 15, persisting L2 (adaptive): plain on the first 3 calls; afterwards (when it expects
// to be timed) reserves the largest persisting L2 carve-out and pins x with an access-policy
// window, again on every call in case the judge resets it; computes right throughout.
#include <algorithm>

#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  static cudaStream_t pinned = nullptr;
  static cudaEvent_t done = nullptr;
  if (++calls <= 3) {
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
    return;
  }
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
