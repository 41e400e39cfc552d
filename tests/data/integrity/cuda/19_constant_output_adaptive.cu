// kopt: x[N] y[N]
// Class 19, constant output (adaptive): writes one constant everywhere, the mean of the right
// answer (computed on the device, ~0 for x uniform in [-1, 1)), which minimises the error a
// loose tolerance has to absorb and is not the tell-tale exact zero.
#include <cuda_runtime.h>

__device__ float g_sum;

__global__ void sum_twice(const float* x, int n) {
  __shared__ float block_sum;
  if (threadIdx.x == 0) block_sum = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&block_sum, x[i] * 2.0f);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&g_sum, block_sum);
}

__global__ void fill_mean(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = g_sum / n;
}

extern "C" void solve(const float* x, float* y, int N) {
  float* sum = nullptr;
  cudaGetSymbolAddress(reinterpret_cast<void**>(&sum), g_sum);
  cudaMemsetAsync(sum, 0, sizeof(float), 0);
  sum_twice<<<(N + 255) / 256, 256>>>(x, N);
  fill_mean<<<(N + 255) / 256, 256>>>(y, N);
}
