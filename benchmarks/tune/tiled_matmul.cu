// tiled_matmul.cu: C[M x N] = A[M x K] * B[K x N], row-major float32, for kopt tune's benchmarks.
//
// Shared-memory tiles of TILE_M x TILE_K (A) and TILE_K x TILE_N (B); each thread keeps a
// THREAD_M x THREAD_N block of C in registers. The tile sizes trade the reuse of each loaded
// element against the number of blocks (occupancy and the tail wave on the SMs), and the
// register block trades reuse against registers per thread: no size is best everywhere, which
// is what makes this kernel's space worth searching.
//
// kopt: A[M*K] B[K*N] C[M*N]
// kopt: tune(TILE_M, 32, 64, 128) tune(TILE_N, 32, 64, 128) tune(TILE_K, 8, 16, 32)
// kopt: tune(THREAD_M, 4, 8) tune(THREAD_N, 4, 8)
// kopt: restrict(TILE_M * TILE_N / (THREAD_M * THREAD_N) >= 64)
// kopt: restrict(TILE_M * TILE_N / (THREAD_M * THREAD_N) <= 256)

#include <cstdio>
#include <cuda_runtime.h>

#ifndef TILE_M
#define TILE_M 64
#endif
#ifndef TILE_N
#define TILE_N 64
#endif
#ifndef TILE_K
#define TILE_K 16
#endif
#ifndef THREAD_M
#define THREAD_M 4
#endif
#ifndef THREAD_N
#define THREAD_N 4
#endif

constexpr int kThreadsN = TILE_N / THREAD_N;  // threads along a row of the C tile
constexpr int kThreadsM = TILE_M / THREAD_M;
constexpr int kThreads = kThreadsM * kThreadsN;

__global__ void __launch_bounds__(kThreads) tiled_matmul_kernel(const float* __restrict__ A,
                                                                const float* __restrict__ B,
                                                                float* __restrict__ C, int M, int N, int K)
{
    // A's tile is kept transposed so that the inner loop reads a column of it as a row.
    __shared__ float a_tile[TILE_K][TILE_M];
    __shared__ float b_tile[TILE_K][TILE_N];
    const int tx = threadIdx.x % kThreadsN;
    const int ty = threadIdx.x / kThreadsN;
    const int row0 = blockIdx.y * TILE_M;
    const int col0 = blockIdx.x * TILE_N;

    float acc[THREAD_M][THREAD_N] = {};
    for (int k0 = 0; k0 < K; k0 += TILE_K) {
        for (int i = threadIdx.x; i < TILE_M * TILE_K; i += kThreads) {
            const int r = i / TILE_K, c = i % TILE_K;
            const int gr = row0 + r, gc = k0 + c;
            a_tile[c][r] = (gr < M && gc < K) ? A[(size_t)gr * K + gc] : 0.0f;
        }
        for (int i = threadIdx.x; i < TILE_K * TILE_N; i += kThreads) {
            const int r = i / TILE_N, c = i % TILE_N;
            const int gr = k0 + r, gc = col0 + c;
            b_tile[r][c] = (gr < K && gc < N) ? B[(size_t)gr * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE_K; ++kk) {
            float a[THREAD_M], b[THREAD_N];
            // Strided across the tile so that neighbouring threads read neighbouring words.
#pragma unroll
            for (int i = 0; i < THREAD_M; ++i) a[i] = a_tile[kk][ty + i * kThreadsM];
#pragma unroll
            for (int j = 0; j < THREAD_N; ++j) b[j] = b_tile[kk][tx + j * kThreadsN];
#pragma unroll
            for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
                for (int j = 0; j < THREAD_N; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < THREAD_M; ++i) {
        const int r = row0 + ty + i * kThreadsM;
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j) {
            const int c = col0 + tx + j * kThreadsN;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K)
{
    if (M <= 0 || N <= 0) return;
    const dim3 blocks((N + TILE_N - 1) / TILE_N, (M + TILE_M - 1) / TILE_M);
    tiled_matmul_kernel<<<blocks, kThreads>>>(A, B, C, M, N, K);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "tiled_matmul: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
