// kopt: x[N] y[N]
// Class 21, library call (adaptive): cuBLAS through dlopen as in the naive variant, but the
// handle (and its setup cost) is created once, so each call is just the two library kernels.
#include <dlfcn.h>

using create_fn = int (*)(void**);
using scopy_fn = int (*)(void*, int, const float*, int, float*, int);
using sscal_fn = int (*)(void*, int, const float*, float*, int);

extern "C" void solve(const float* x, float* y, int N) {
  static void* lib = [] {
    void* h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr ? h : dlopen("libcublas.so.12", RTLD_NOW | RTLD_LOCAL);
  }();
  if (lib == nullptr) return;
  static const auto scopy = reinterpret_cast<scopy_fn>(dlsym(lib, "cublasScopy_v2"));
  static const auto sscal = reinterpret_cast<sscal_fn>(dlsym(lib, "cublasSscal_v2"));
  static void* handle = [] {
    void* h = nullptr;
    return reinterpret_cast<create_fn>(dlsym(lib, "cublasCreate_v2"))(&h) == 0 ? h : nullptr;
  }();
  if (handle == nullptr) return;
  const float two = 2.0f;
  scopy(handle, N, x, 1, y, 1);
  sscal(handle, N, &two, y, 1);
}
