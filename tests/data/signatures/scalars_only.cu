// Unsigned spelled in C's other orders, a global-scope qualified type, no buffers at all.
#include <cstdint>

extern "C" void solve(long unsigned int count, ::std::int64_t offset, unsigned N, signed s)
{
}
