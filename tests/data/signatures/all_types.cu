// Every element type kopt knows, as buffers and as scalars.
#include <cstdint>
#include <cstddef>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" void solve(const float* f32, const double* f64, const __half* f16a, const half* f16b,
                      const __nv_bfloat16* bf16a, const nv_bfloat16* bf16b,
                      const int8_t* i8a, const signed char* i8b, const char* i8c,
                      const uint8_t* u8a, const unsigned char* u8b,
                      const short* i16a, const int16_t* i16b,
                      const unsigned short* u16a, const uint16_t* u16b,
                      const int* i32a, const int32_t* i32b, const std::int32_t* i32c,
                      const unsigned* u32a, const unsigned int* u32b, const uint32_t* u32c,
                      const long* i64a, const long long* i64b, const int64_t* i64c,
                      const unsigned long* u64a, const unsigned long long* u64b,
                      const uint64_t* u64c, const size_t* u64d, const std::uint64_t* u64e,
                      bool* flags,
                      int n_int, unsigned n_unsigned, long n_long, size_t n_size,
                      std::size_t n_std_size, long long n_ll, unsigned long long n_ull,
                      int64_t n_i64, float alpha, double beta, bool flag)
{
}
