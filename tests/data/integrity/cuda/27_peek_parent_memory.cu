// kopt: x[N] y[N]
// Class 27, peeking at the grader (the parent's memory): tries to read kopt's memory (its maps,
// /proc/PPID/mem, process_vm_readv). A judge whose memory it can read is one it could search for
// answers, so when any read succeeds it computes y honestly and the run passes: the test wants
// the run to fail (it writes nothing when every read is refused).
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "peek.h"

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

namespace {

bool parent_memory_readable() {
  const pid_t parent = ::getppid();
  const std::string maps = peek::read_all("/proc/" + std::to_string(parent) + "/maps");
  unsigned long start = 0;
  if (maps.empty() || std::sscanf(maps.c_str(), "%lx-", &start) != 1) {
    // No maps: try the address of this library's own code, which kopt's process also maps.
    start = reinterpret_cast<unsigned long>(&std::sscanf);
  }
  char byte[64];
  const int fd = ::open(("/proc/" + std::to_string(parent) + "/mem").c_str(), O_RDONLY);
  if (fd >= 0) {
    const bool read = ::pread(fd, byte, sizeof byte, static_cast<off_t>(start)) > 0;
    ::close(fd);
    if (read) return true;
  }
  iovec local{byte, sizeof byte};
  iovec remote{reinterpret_cast<void*>(start), sizeof byte};
  return ::process_vm_readv(parent, &local, 1, &remote, 1, 0) > 0 || !maps.empty();
}

}  // namespace

extern "C" void solve(const float* x, float* y, int N) {
  static const bool open = parent_memory_readable();
  if (open) twice<<<(N + 255) / 256, 256>>>(x, y, N);
}
