// A softmax that is right only when cols is a multiple of 1024 (the loop's GPU test of
// --check-dims): one block of 256 threads per row walks the row in chunks of 1024 columns and
// ignores the rest, so at cols=1024 it passes the judge and is much faster than
// softmax_naive.cu, and at cols=1000 it writes nothing at all.
//
// kopt: input[rows*cols] output[rows*cols]

#include <cuda_runtime.h>
#include <math.h>
#include <cstdio>

namespace {

constexpr int kThreads = 256;
constexpr int kChunk = 1024;  // columns per chunk: 4 per thread

__device__ float block_reduce(float v, float* scratch, bool is_max) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const float other = scratch[threadIdx.x + half];
      scratch[threadIdx.x] = is_max ? fmaxf(scratch[threadIdx.x], other) : scratch[threadIdx.x] + other;
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();
  return result;
}

__global__ void softmax_chunked_kernel(const float* __restrict__ input, float* __restrict__ output,
                                       int cols) {
  __shared__ float scratch[kThreads];
  const float* x = input + (size_t)blockIdx.x * cols;
  float* y = output + (size_t)blockIdx.x * cols;
  const int chunks = cols / kChunk;  // the assumption: cols % 1024 == 0

  float m = -INFINITY;
  for (int c = 0; c < chunks; ++c)
    for (int j = 0; j < kChunk / kThreads; ++j) m = fmaxf(m, x[c * kChunk + j * kThreads + threadIdx.x]);
  m = block_reduce(m, scratch, true);

  float sum = 0.0f;
  for (int c = 0; c < chunks; ++c)
    for (int j = 0; j < kChunk / kThreads; ++j) sum += expf(x[c * kChunk + j * kThreads + threadIdx.x] - m);
  sum = block_reduce(sum, scratch, false);

  const float inv = 1.0f / sum;
  for (int c = 0; c < chunks; ++c)
    for (int j = 0; j < kChunk / kThreads; ++j) {
      const int i = c * kChunk + j * kThreads + threadIdx.x;
      y[i] = expf(x[i] - m) * inv;
    }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  softmax_chunked_kernel<<<rows, kThreads>>>(input, output, cols);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "softmax_chunked: launch failed: %s\n", cudaGetErrorString(err));
    return;
  }
  cudaDeviceSynchronize();
}
