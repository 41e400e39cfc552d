// softmax_racy.cu: softmax_block.cu with a race on shared memory that never changes a value:
// thread 0 writes a word of shared memory that every thread then reads with no barrier in
// between. The values it writes cannot change the output (the test on what is read never
// holds), so the judge passes it every time; compute-sanitizer racecheck reports the hazard. The
// final confirmation must reject it (tests/loop/loop_gpu_test.cpp).
//
// kopt: input[rows*cols] output[rows*cols]

#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarp = 32;
constexpr int kMaxThreads = 1024;
// float4 values cached per thread (4 -> 16 floats); a compile-time knob
// (-DSOFTMAX_VEC_PER_THREAD=N) that also sets the block size: about
// cols / (4 * N) threads per block, rounded up to a warp.
#ifndef SOFTMAX_VEC_PER_THREAD
#define SOFTMAX_VEC_PER_THREAD 4
#endif
constexpr int kVecPerThread = SOFTMAX_VEC_PER_THREAD;
constexpr int kScalarPerThread = 8;   // floats cached per thread on the scalar path

// ---- small helpers that work on both float and float4 -------------------------

__device__ __forceinline__ float vmax(float a) { return a; }
__device__ __forceinline__ float vmax(float4 a) { return fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w)); }

__device__ __forceinline__ float vsum(float a) { return a; }
__device__ __forceinline__ float vsum(float4 a) { return (a.x + a.y) + (a.z + a.w); }

// exp(a - m), element-wise
__device__ __forceinline__ float vexp(float a, float m) { return __expf(a - m); }
__device__ __forceinline__ float4 vexp(float4 a, float m)
{
    return make_float4(__expf(a.x - m), __expf(a.y - m), __expf(a.z - m), __expf(a.w - m));
}

__device__ __forceinline__ float vscale(float a, float s) { return a * s; }
__device__ __forceinline__ float4 vscale(float4 a, float s)
{
    return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}

// Rescale a partial sum that was accumulated relative to max `m_old` so that it
// is relative to `m_new` (m_new >= m_old). Guards the all -inf case.
__device__ __forceinline__ float rescale(float s, float m_old, float m_new)
{
    return (m_old == -INFINITY) ? 0.0f : s * __expf(m_old - m_new);
}

// ---- reductions -----------------------------------------------------------------

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int off = kWarp / 2; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = kWarp / 2; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Block-wide reductions; every thread gets the result. `scratch` holds one
// float per warp; the trailing __syncthreads makes it safe to reuse.
__device__ float block_max(float v, float* scratch)
{
    const int lane = threadIdx.x % kWarp;
    const int warp = threadIdx.x / kWarp;
    const int nwarps = blockDim.x / kWarp;
    v = warp_max(v);
    if (nwarps == 1) return v;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (lane < nwarps) ? scratch[lane] : -INFINITY;
    v = warp_max(v);
    __syncthreads();
    return v;
}

__device__ float block_sum(float v, float* scratch)
{
    const int lane = threadIdx.x % kWarp;
    const int warp = threadIdx.x / kWarp;
    const int nwarps = blockDim.x / kWarp;
    v = warp_sum(v);
    if (nwarps == 1) return v;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (lane < nwarps) ? scratch[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();
    return v;
}

// Combine (max, sum) pairs across the warp, then across the block.
__device__ __forceinline__ void combine(float& m, float& s, float m2, float s2)
{
    float mn = fmaxf(m, m2);
    s = rescale(s, m, mn) + rescale(s2, m2, mn);
    m = mn;
}

__device__ void block_max_sum(float& m, float& s, float* scratch_m, float* scratch_s)
{
    const int lane = threadIdx.x % kWarp;
    const int warp = threadIdx.x / kWarp;
    const int nwarps = blockDim.x / kWarp;
#pragma unroll
    for (int off = kWarp / 2; off > 0; off >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, off);
        float s2 = __shfl_xor_sync(0xffffffffu, s, off);
        combine(m, s, m2, s2);
    }
    if (nwarps == 1) return;
    if (lane == 0) { scratch_m[warp] = m; scratch_s[warp] = s; }
    __syncthreads();
    m = (lane < nwarps) ? scratch_m[lane] : -INFINITY;
    s = (lane < nwarps) ? scratch_s[lane] : 0.0f;
#pragma unroll
    for (int off = kWarp / 2; off > 0; off >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, off);
        float s2 = __shfl_xor_sync(0xffffffffu, s, off);
        combine(m, s, m2, s2);
    }
    __syncthreads();
}

}  // namespace

// ---- the kernel -----------------------------------------------------------------
//
// V is float4 (vector path; requires cols % 4 == 0 and aligned buffers) or float.
// Each thread owns vectors tid, tid + blockDim, tid + 2*blockDim, ... of its row.
template <typename V, int VPT>
__global__ void softmax_block_kernel(const float* __restrict__ input,
                                     float* __restrict__ output, int cols)
{
    __shared__ float scratch_m[kWarp];
    __shared__ float scratch_s[kWarp];
    __shared__ int block_seen;

    // The race: written by thread 0, read by every thread, no __syncthreads() between.
    if (threadIdx.x == 0) block_seen = static_cast<int>(blockIdx.x);
    if (*reinterpret_cast<volatile int*>(&block_seen) == -7) output[0] = 0.0f;  // never: no block is -7

    constexpr int kWidth = sizeof(V) / sizeof(float);
    const int nvec = cols / kWidth;
    const size_t row_off = (size_t)blockIdx.x * (size_t)cols;
    const V* __restrict__ x = reinterpret_cast<const V*>(input + row_off);
    V* __restrict__ y = reinterpret_cast<V*>(output + row_off);
    const int tid = threadIdx.x;
    const int nthr = blockDim.x;

    if (nvec <= VPT * nthr) {
        // Single read: the whole row lives in registers.
        V v[VPT];
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int i = tid + k * nthr;
            if (i < nvec) {
                v[k] = x[i];
                m = fmaxf(m, vmax(v[k]));
            }
        }
        m = block_max(m, scratch_m);

        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int i = tid + k * nthr;
            if (i < nvec) {
                v[k] = vexp(v[k], m);
                s += vsum(v[k]);
            }
        }
        s = block_sum(s, scratch_s);

        const float inv = 1.0f / s;
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int i = tid + k * nthr;
            if (i < nvec) y[i] = vscale(v[k], inv);
        }
    } else {
        // Long rows: online softmax statistics in one pass, then a second pass
        // that re-reads the row (mostly from L2) and writes the result.
        float m = -INFINITY, s = 0.0f;
        for (int i = tid; i < nvec; i += nthr) {
            const V a = x[i];
            const float mn = fmaxf(m, vmax(a));
            s = rescale(s, m, mn) + vsum(vexp(a, mn));
            m = mn;
        }
        block_max_sum(m, s, scratch_m, scratch_s);

        const float inv = 1.0f / s;
        for (int i = tid; i < nvec; i += nthr) y[i] = vscale(vexp(x[i], m), inv);
    }
}

namespace {

int round_up_warp(int n) { return (n + kWarp - 1) / kWarp * kWarp; }

int threads_for(int nvec, int per_thread)
{
    int t = round_up_warp((nvec + per_thread - 1) / per_thread);
    if (t < kWarp) t = kWarp;
    if (t > kMaxThreads) t = kMaxThreads;
    return t;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return;

    const bool aligned =
        ((reinterpret_cast<uintptr_t>(input) | reinterpret_cast<uintptr_t>(output)) % 16) == 0;

    if (cols % 4 == 0 && aligned) {
        const int nvec = cols / 4;
        softmax_block_kernel<float4, kVecPerThread>
            <<<rows, threads_for(nvec, kVecPerThread)>>>(input, output, cols);
    } else {
        softmax_block_kernel<float, kScalarPerThread>
            <<<rows, threads_for(cols, kScalarPerThread)>>>(input, output, cols);
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "softmax_block: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
