// kopt: x[N] y[N]
// Class 20, timer tampering (naive): exports CUPTI and driver entry points of its own, hoping
// the dynamic linker binds the judge's calls to them: no activity records ("nothing to time")
// and a context synchronisation that waits for nothing. The kernel itself is right.
#include <cstddef>
#include <cstdint>

#define KOPT_EXPORT extern "C" __attribute__((visibility("default")))

// CUPTI_ERROR_MAX_LIMIT_REACHED (12) is how CUPTI says "no more records in this buffer".
KOPT_EXPORT int cuptiActivityGetNextRecord(std::uint8_t*, std::size_t, void** record) {
  if (record != nullptr) *record = nullptr;
  return 12;
}
KOPT_EXPORT int cuptiActivityFlushAll(std::uint32_t) { return 0; }
KOPT_EXPORT int cuCtxSynchronize(void) { return 0; }

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) { twice<<<(N + 255) / 256, 256>>>(x, y, N); }
