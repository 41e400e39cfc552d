// Fresh inputs for every timed call, made on the device: a kernel that remembers answers (by
// buffer address, by input contents, by call count) must never see the same inputs twice,
// and generating them on the host and uploading would cost more than most kernels take.
// Each element is a pure function of (seed, index): a counter-based hash, so the same
// (seed, index) gives the same value however the grid is laid out. Built to PTX at kopt's
// build time, like the L2 flush.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

// splitmix64's finaliser: a bijection on 64 bits with good avalanche.
__device__ unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// [0, 1) with 53 random bits.
__device__ double unit_interval(unsigned long long bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// Type codes: the host side (input_generator.cpp) sends the same numbers.
enum type_code : int {
  f32, f64, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64, boolean
};
enum distribution_code : int { uniform_real, uniform_integer, choice, normal };

__device__ void store(void* out, unsigned long long i, int type, double real, long long integer, bool is_integer) {
  const double v = is_integer ? static_cast<double>(integer) : real;
  switch (type) {
    case f32: static_cast<float*>(out)[i] = static_cast<float>(v); break;
    case f64: static_cast<double*>(out)[i] = v; break;
    case f16: static_cast<__half*>(out)[i] = __double2half(v); break;
    case bf16: static_cast<__nv_bfloat16*>(out)[i] = __double2bfloat16(v); break;
    case i8: static_cast<signed char*>(out)[i] = static_cast<signed char>(is_integer ? integer : static_cast<long long>(v)); break;
    case i16: static_cast<short*>(out)[i] = static_cast<short>(is_integer ? integer : static_cast<long long>(v)); break;
    case i32: static_cast<int*>(out)[i] = static_cast<int>(is_integer ? integer : static_cast<long long>(v)); break;
    case i64: static_cast<long long*>(out)[i] = is_integer ? integer : static_cast<long long>(v); break;
    case u8: static_cast<unsigned char*>(out)[i] = static_cast<unsigned char>(is_integer ? integer : static_cast<long long>(v)); break;
    case u16: static_cast<unsigned short*>(out)[i] = static_cast<unsigned short>(is_integer ? integer : static_cast<long long>(v)); break;
    case u32: static_cast<unsigned*>(out)[i] = static_cast<unsigned>(is_integer ? integer : static_cast<long long>(v)); break;
    case u64: static_cast<unsigned long long*>(out)[i] = static_cast<unsigned long long>(is_integer ? integer : static_cast<long long>(v)); break;
    default: static_cast<unsigned char*>(out)[i] = (is_integer ? integer : static_cast<long long>(v)) != 0 ? 1 : 0; break;
  }
}

}  // namespace

// uniform_real: [low, high); uniform_integer: [integer_low, integer_high); choice: one of
// `choices[0..choice_count)` (stored as doubles, integers exactly); normal: mean, stddev.
extern "C" __global__ void kopt_generate_inputs(void* out, unsigned long long count, int type, int distribution,
                                                double low, double high, long long integer_low,
                                                long long integer_high, const double* choices, int choice_count,
                                                double mean, double stddev, unsigned long long seed) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const unsigned long long bits = mix64(seed ^ mix64(i));
    switch (distribution) {
      case uniform_real:
        store(out, i, type, low + unit_interval(bits) * (high - low), 0, false);
        break;
      case uniform_integer: {
        const unsigned long long span = static_cast<unsigned long long>(integer_high - integer_low);
        store(out, i, type, 0, integer_low + static_cast<long long>(bits % span), true);
        break;
      }
      case choice: {
        const double c = choices[bits % static_cast<unsigned long long>(choice_count)];
        store(out, i, type, c, static_cast<long long>(c), type != f32 && type != f64 && type != f16 && type != bf16);
        break;
      }
      default: {
        // Box–Muller on two independent uniforms; 1 - u keeps the logarithm finite.
        const double u1 = 1.0 - unit_interval(bits);
        const double u2 = unit_interval(mix64(bits ^ 0x5bd1e995ULL));
        store(out, i, type, mean + stddev * sqrt(-2.0 * log(u1)) * cospi(2.0 * u2), 0, false);
        break;
      }
    }
  }
}
