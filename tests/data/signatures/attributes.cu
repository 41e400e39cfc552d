// Attributes and CUDA execution-space specifiers around solve() and its parameters.
#include <cuda_runtime.h>

#define KOPT_UNUSED __attribute__((unused))

extern "C" __host__ void __attribute__((visibility("default")))
solve([[maybe_unused]] const float* x,
      float* y __attribute__((aligned(16))),
      [[maybe_unused]] int n) noexcept
{
}
