// kopt: x[N] y[N]
// Class 14, work outside kernels (adaptive): the host computes the answer as in the naive
// variant, plus an empty kernel launch so that "a kernel ran" during every call.
#include <vector>

#include <cuda_runtime.h>

__global__ void alibi(const float*, float*, int) {}

extern "C" void solve(const float* x, float* y, int N) {
  static std::vector<float> host;
  host.resize(N);
  cudaMemcpy(host.data(), x, sizeof(float) * N, cudaMemcpyDeviceToHost);
  for (float& v : host) v *= 2.0f;
  cudaMemcpy(y, host.data(), sizeof(float) * N, cudaMemcpyHostToDevice);
  alibi<<<1, 32>>>(x, y, N);
}
