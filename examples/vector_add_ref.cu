// vector_add_ref.cu: native reference for vector_add.cu (same solve signature),
// so that `kopt bench vector_add.cu --ref vector_add_ref.cu` needs no Python.
//
// Deliberately written differently from the kernel under test: a grid-stride
// loop with 64-bit indices and a fixed grid size.
//
// kopt: A[N] B[N] C[N]

#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add_reference_kernel(const float* A, const float* B,
                                            float* C, long long n)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        C[i] = A[i] + B[i];
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int N)
{
    if (N <= 0) return;
    vector_add_reference_kernel<<<1024, 128>>>(A, B, C, (long long)N);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "vector_add_ref: launch failed: %s\n", cudaGetErrorString(err));
        return;
    }
    cudaDeviceSynchronize();
}
