// histogram.cu: count how often each value in [0, num_bins) occurs in input.
//
// The example for value ranges: input holds bin indices, so the annotation
// tells kopt to draw them from [0, num_bins) instead of arbitrary integers.
// histogram is a plain output (kopt poisons it before each run), so solve()
// zeroes it itself (a small kernel) before the counting kernel accumulates into it.
//
// Each block first counts into a private histogram in shared memory (when the
// bins fit) and then adds it to the global one, which keeps contention on the
// global atomics low; for very many bins it counts straight into global memory.
//
// kopt: input[N] histogram[num_bins] range(input, 0, num_bins)

#include <cstdio>
#include <cuda_runtime.h>

// Up to 12288 bins (48 KiB of int counters) fit in a block's default shared
// memory allowance; the private histogram is sized to num_bins at launch.
constexpr int kSharedBinsMax = 12288;

__global__ void zero_kernel(int* __restrict__ histogram, int num_bins)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < num_bins) histogram[b] = 0;
}

__global__ void histogram_shared_kernel(const int* __restrict__ input,
                                        int* __restrict__ histogram,
                                        int N, int num_bins)
{
    extern __shared__ int local[];  // num_bins counters
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local[b] = 0;
    __syncthreads();

    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) {
        const int v = input[i];
        if (v >= 0 && v < num_bins) atomicAdd(&local[v], 1);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        const int c = local[b];
        if (c != 0) atomicAdd(&histogram[b], c);
    }
}

__global__ void histogram_global_kernel(const int* __restrict__ input,
                                        int* __restrict__ histogram,
                                        int N, int num_bins)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) {
        const int v = input[i];
        if (v >= 0 && v < num_bins) atomicAdd(&histogram[v], 1);
    }
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins)
{
    if (num_bins <= 0) return;

    // The output arrives poisoned: clear it first, on the same (default)
    // stream. A kernel rather than cudaMemsetAsync, so that kopt's kernel
    // timing and profiling see this step too.
    zero_kernel<<<(num_bins + 255) / 256, 256>>>(histogram, num_bins);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "histogram: zeroing launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    if (N > 0) {
        const int threads = 256;
        int blocks = (N + threads - 1) / threads;
        if (blocks > 1024) blocks = 1024;  // grid-stride loop covers the rest
        if (num_bins <= kSharedBinsMax) {
            const size_t smem = sizeof(int) * (size_t)num_bins;
            histogram_shared_kernel<<<blocks, threads, smem>>>(input, histogram, N, num_bins);
        } else {
            histogram_global_kernel<<<blocks, threads>>>(input, histogram, N, num_bins);
        }
        err = cudaGetLastError();
        if (err != cudaSuccess) {
            fprintf(stderr, "histogram: launch failed: %s\n", cudaGetErrorString(err));
            return;
        }
    }
    cudaDeviceSynchronize();
}
