// tuned_softmax.cu: row-wise softmax of a rows x cols float32 matrix (row-major), for kopt
// tune's benchmarks.
//
// A block holds ROWS_PER_BLOCK rows, THREADS_PER_ROW threads each; a thread reads VEC
// consecutive floats at a time. Two passes over the row: a running maximum with its rescaled
// sum, then the normalized write (the second read mostly hits L2). Few threads per row leave
// the memory system idle on long rows; many leave them idle in the reductions; wide loads need
// fewer instructions but more bytes in flight per thread: the best mix depends on the shape.
//
// kopt: input[rows*cols] output[rows*cols]
// kopt: tune(THREADS_PER_ROW, 32, 64, 128, 256, 512) tune(VEC, 1, 2, 4) tune(ROWS_PER_BLOCK, 1, 2, 4)
// kopt: restrict(THREADS_PER_ROW * ROWS_PER_BLOCK >= 64) restrict(THREADS_PER_ROW * ROWS_PER_BLOCK <= 1024)
// kopt: restrict(cols % VEC == 0)

#include <cstdio>
#include <cuda_runtime.h>
#include <math.h>

#ifndef THREADS_PER_ROW
#define THREADS_PER_ROW 128
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef ROWS_PER_BLOCK
#define ROWS_PER_BLOCK 1
#endif

constexpr int kWarp = 32;
constexpr int kWarpsPerRow = THREADS_PER_ROW / kWarp;

struct running {  // a maximum and the sum of exp(x - maximum) over what was seen
    float max;
    float sum;
};

__device__ __forceinline__ running merge(running a, running b)
{
    const float m = fmaxf(a.max, b.max);
    if (m == -INFINITY) return {m, 0.0f};
    return {m, a.sum * __expf(a.max - m) + b.sum * __expf(b.max - m)};
}

__device__ __forceinline__ running warp_merge(running r)
{
#pragma unroll
    for (int off = kWarp / 2; off > 0; off >>= 1) {
        running other{__shfl_xor_sync(0xffffffffu, r.max, off), __shfl_xor_sync(0xffffffffu, r.sum, off)};
        r = merge(r, other);
    }
    return r;
}

template <int N> struct vec_of;
template <> struct vec_of<1> { using type = float; };
template <> struct vec_of<2> { using type = float2; };
template <> struct vec_of<4> { using type = float4; };
using vec = vec_of<VEC>::type;

__device__ __forceinline__ void lanes(const vec& v, float (&out)[VEC])
{
    const float* p = reinterpret_cast<const float*>(&v);
#pragma unroll
    for (int i = 0; i < VEC; ++i) out[i] = p[i];
}

__global__ void __launch_bounds__(THREADS_PER_ROW * ROWS_PER_BLOCK)
    tuned_softmax_kernel(const float* __restrict__ input, float* __restrict__ output, int rows, int cols)
{
    __shared__ running partial[ROWS_PER_BLOCK][kWarpsPerRow > 0 ? kWarpsPerRow : 1];
    const int row_in_block = threadIdx.x / THREADS_PER_ROW;
    const int t = threadIdx.x % THREADS_PER_ROW;
    const int row = blockIdx.x * ROWS_PER_BLOCK + row_in_block;
    const bool active = row < rows;
    const int vecs = cols / VEC;
    const vec* in = reinterpret_cast<const vec*>(input + (size_t)(active ? row : 0) * cols);
    vec* out = reinterpret_cast<vec*>(output + (size_t)(active ? row : 0) * cols);

    running r{-INFINITY, 0.0f};
    if (active) {
        for (int i = t; i < vecs; i += THREADS_PER_ROW) {
            float x[VEC];
            lanes(in[i], x);
#pragma unroll
            for (int j = 0; j < VEC; ++j) r = merge(r, running{x[j], 1.0f});
        }
    }
    r = warp_merge(r);
    if (kWarpsPerRow > 1) {
        if (t % kWarp == 0) partial[row_in_block][t / kWarp] = r;
        __syncthreads();
        r = partial[row_in_block][0];
        for (int w = 1; w < kWarpsPerRow; ++w) r = merge(r, partial[row_in_block][w]);
    }
    if (!active) return;
    const float scale = 1.0f / r.sum;
    for (int i = t; i < vecs; i += THREADS_PER_ROW) {
        float x[VEC];
        lanes(in[i], x);
        vec y;
        float* p = reinterpret_cast<float*>(&y);
#pragma unroll
        for (int j = 0; j < VEC; ++j) p[j] = __expf(x[j] - r.max) * scale;
        out[i] = y;
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return;
    const int blocks = (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
    tuned_softmax_kernel<<<blocks, THREADS_PER_ROW * ROWS_PER_BLOCK>>>(input, output, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "tuned_softmax: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
