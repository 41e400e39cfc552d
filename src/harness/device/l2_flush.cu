// Evicts the L2 cache between timing samples by *reading* a buffer at least twice its size:
// reading leaves clean lines behind, while a write-based flush (memset) leaves dirty lines
// whose write-back lands inside the next measured kernel (MEASURE.md: +7 % on an H200).
// Built to PTX at kopt's build time and loaded through the driver, which compiles it for
// whatever GPU is present.

extern "C" __global__ void kopt_l2_flush(const int4* __restrict__ data, unsigned long long count, int* sink) {
  int4 mix = make_int4(0, 0, 0, 0);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const int4 v = __ldcg(data + i);  // cache in L2 only
    mix.x ^= v.x;
    mix.y ^= v.y;
    mix.z ^= v.z;
    mix.w ^= v.w;
  }
  // Never true for the zeroed buffer; it keeps the loads from being optimised away.
  if ((mix.x ^ mix.y ^ mix.z ^ mix.w) == 0x6b6f7074) *sink = 1;
}
