// axpy_inout.cu: y = alpha * x + y (float32), updating y in place.
//
// The example for the `inout` role: y is a non-const pointer that the kernel
// READS before writing, so it must be declared inout. kopt then fills y with
// the same seeded values for the kernel and for the reference instead of
// poisoning it. alpha is a float scalar: set it with --alpha=2.5.
//
// kopt: x[N] y[N] inout(y)

#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy_kernel(const float* __restrict__ x, float* __restrict__ y,
                            float alpha, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        y[i] = fmaf(alpha, x[i], y[i]);
    }
}

extern "C" void solve(const float* x, float* y, float alpha, int N)
{
    if (N <= 0) return;
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    axpy_kernel<<<blocks, threads>>>(x, y, alpha, N);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "axpy_inout: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
