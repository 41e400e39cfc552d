// kopt: x[N] y[N]
// The write sandbox (docs/integrity.md, "What the code under test may write"): a right kernel
// whose library, on its first call, writes `kopt-probe-TOKEN` into /tmp, /dev/shm and the folder
// KOPT_PROBE_RUN_DIR names (a loop's run folder, say), which kopt's sandbox must refuse, and into
// its own temporary folder (TMPDIR), which it must allow: when that fails, it writes no output.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool write_probe(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fputs("the kernel was here\n", f);
  return std::fclose(f) == 0;
}

// Whether its own temporary folder took the file (the others are the test's to look at).
bool probe_once() {
  const char* token = std::getenv("KOPT_PROBE_TOKEN");
  const std::string name = std::string("kopt-probe-") + (token != nullptr ? token : "none");
  write_probe("/tmp/" + name);
  write_probe("/dev/shm/" + name);
  if (const char* run = std::getenv("KOPT_PROBE_RUN_DIR")) write_probe(std::string(run) + "/" + name);
  const char* own = std::getenv("TMPDIR");
  return own != nullptr && write_probe(std::string(own) + "/" + name);
}

}  // namespace

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

extern "C" void solve(const float* x, float* y, int N) {
  static const bool own_folder_writable = probe_once();
  if (own_folder_writable) twice<<<(N + 255) / 256, 256>>>(x, y, N);
}
