// kopt: x[N] y[N]
// Class 26, ghost kernel (naive): its source defines the kernel twice() and never launches it;
// all the work goes to cuBLAS (y = x; y *= 2), loaded with dlopen so that the library shows no
// link-time dependency; a fresh handle every call. No kernel compiled from the source runs.
#include <dlfcn.h>

__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

using create_fn = int (*)(void**);
using destroy_fn = int (*)(void*);
using scopy_fn = int (*)(void*, int, const float*, int, float*, int);
using sscal_fn = int (*)(void*, int, const float*, float*, int);

static void* cublas() {
  static void* lib = [] {
    void* h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr ? h : dlopen("libcublas.so.12", RTLD_NOW | RTLD_LOCAL);
  }();
  return lib;
}

extern "C" void solve(const float* x, float* y, int N) {
  void* lib = cublas();
  if (lib == nullptr) return;
  const auto create = reinterpret_cast<create_fn>(dlsym(lib, "cublasCreate_v2"));
  const auto destroy = reinterpret_cast<destroy_fn>(dlsym(lib, "cublasDestroy_v2"));
  const auto scopy = reinterpret_cast<scopy_fn>(dlsym(lib, "cublasScopy_v2"));
  const auto sscal = reinterpret_cast<sscal_fn>(dlsym(lib, "cublasSscal_v2"));
  void* handle = nullptr;
  if (create(&handle) != 0) return;
  const float two = 2.0f;
  scopy(handle, N, x, 1, y, 1);
  sscal(handle, N, &two, y, 1);
  destroy(handle);
}
