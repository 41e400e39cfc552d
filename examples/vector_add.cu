// vector_add.cu: element-wise sum of two float vectors, C = A + B.
//
// The simplest kopt example: one thread per element, a bounds check for the
// tail, no vectorization. A good first target for `kopt bench` / `kopt loop`.
//
// kopt: A[N] B[N] C[N]

#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* __restrict__ A,
                                  const float* __restrict__ B,
                                  float* __restrict__ C, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        C[i] = A[i] + B[i];
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int N)
{
    if (N <= 0) return;
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    vector_add_kernel<<<blocks, threads>>>(A, B, C, N);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "vector_add: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
