// solve() inside an extern "C" block, among templates, namespaces, kernels and decoys.
#include <cstdio>
#include <cuda_runtime.h>

#define DECLARE_SOLVE \
    extern "C" void solve(double x)   /* a macro kopt never expands */

namespace detail {
template <typename T, int kBlock>
__global__ void scale(const T* __restrict__ in, T* __restrict__ out, T factor, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}

// Not the entry point: a different name, C++ linkage.
void solve_helper(int n) { std::printf("solve(%d) called\n", n); }

struct launcher {
    void solve(int);  // a member named solve is not the entry point either
};
}  // namespace detail

static const char* banner = "extern \"C\" void solve(int fake)";

extern "C" {

// A doc comment: extern "C" void solve(int commented_out);
void solve(const double* in, double* out, double factor, size_t n)
{
    const int blocks = static_cast<int>((n + 255) / 256);
    detail::scale<double, 256><<<blocks, 256>>>(in, out, factor, static_cast<int>(n));
    cudaDeviceSynchronize();
    (void)banner;
}

}  // extern "C"
