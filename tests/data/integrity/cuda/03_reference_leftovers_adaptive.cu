// kopt: x[N] y[N]
// Class 3, reference leftovers (adaptive): honest on the first 3 calls, keeping a copy of its
// own last output; afterwards replays that copy into y instead of computing.
#include <cuda_runtime.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  static float* saved = nullptr;
  if (saved == nullptr) cudaMalloc(&saved, sizeof(float) * N);
  if (++calls <= 3) {
    twice<<<(N + 255) / 256, 256>>>(x, y, N);
    cudaMemcpyAsync(saved, y, sizeof(float) * N, cudaMemcpyDeviceToDevice, 0);
  } else {
    cudaMemcpyAsync(y, saved, sizeof(float) * N, cudaMemcpyDeviceToDevice, 0);
  }
}
