#include <cuda_runtime.h>
#include <float.h>

#define BLOCK 256

template <int kThreads>
__device__ float block_max(float v) {
    __shared__ float s[kThreads];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int o = kThreads / 2; o > 0; o >>= 1) {
        if (threadIdx.x < o) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + o]);
        __syncthreads();
    }
    return s[0];
}

__global__ void softmax_kernel(const float* input, float* output, int N) {
    float m = block_max<BLOCK>(threadIdx.x < N ? input[threadIdx.x] : -FLT_MAX);
    if (threadIdx.x < N) output[threadIdx.x] = __expf(input[threadIdx.x] - m);
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* input, float* output, int N) {
    int threadsPerBlock = BLOCK;
    int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
    softmax_kernel<<<blocksPerGrid, threadsPerBlock>>>(input, output, N);
    cudaDeviceSynchronize();
}
