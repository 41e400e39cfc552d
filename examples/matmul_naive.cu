// matmul_naive.cu: C[M x N] = A[M x K] * B[K x N], all row-major float32.
//
// Naive baseline: one thread per output element, no tiling, no shared memory.
// threadIdx.x runs along the columns of C, so a warp reads one element of A
// (broadcast) and 32 consecutive elements of a row of B per step, and writes
// 32 consecutive elements of C. Every element of A and B is re-read from
// global memory (L1/L2) many times; the obvious next steps are shared-memory
// tiling, register blocking, and then tensor cores (see cutlass_gemm.cu).
//
// kopt: A[M*K] B[K*N] C[M*N]

#include <cstdio>
#include <cuda_runtime.h>

__global__ void matmul_naive_kernel(const float* __restrict__ A,
                                    const float* __restrict__ B,
                                    float* __restrict__ C,
                                    int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;

    const float* a = A + (size_t)row * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc += a[k] * B[(size_t)k * N + col];
    }
    C[(size_t)row * N + col] = acc;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K)
{
    if (M <= 0 || N <= 0) return;
    const dim3 threads(16, 16);
    const dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
    matmul_naive_kernel<<<blocks, threads>>>(A, B, C, M, N, K);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "matmul_naive: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
