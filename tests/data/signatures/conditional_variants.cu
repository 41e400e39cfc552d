// Variants of solve() under conditions, as a kernel file that -D picks from may hold them.
// kopt: x[N] y[N]
#define TILE 128
#if defined(USE_VECTORS) && (TILE % 4 == 0) || VARIANT >= 2
extern "C" void solve(const float* x, float* y, int N) { /* float4 */ }
#elif VARIANT == 1 ? 1 : 0
extern "C" void solve(const float* x, float* y, int N) { /* one warp per row */ }
#else
#  ifndef NO_FALLBACK
extern "C" void solve(const float* x, float* y, int N) { /* naive */ }
#  endif
#endif
