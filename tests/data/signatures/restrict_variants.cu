// Every way of spelling const-ness and restrict that LeetGPU solutions use.
#include <cuda_runtime.h>

extern "C" void solve(const float* __restrict__ a,
                      float *__restrict b,
                      const float * const __restrict__ c,
                      float const* d,
                      const float* const e,
                      float* __restrict__ const f,
                      volatile int* g,
                      const int n)
{
}
