// kopt: x[N] y[N]
// Class 21, library call (adaptive): cuBLAS through dlopen as in the naive variant, but the
// handle (and its setup cost) is created once, and the library does the larger part: its own
// kernel copies y = x, cuBLAS scales y by 2.
#include <dlfcn.h>

using create_fn = int (*)(void**);
using sscal_fn = int (*)(void*, int, const float*, float*, int);

__global__ void copy_x(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

extern "C" void solve(const float* x, float* y, int N) {
  static void* lib = [] {
    void* h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr ? h : dlopen("libcublas.so.12", RTLD_NOW | RTLD_LOCAL);
  }();
  if (lib == nullptr) return;
  static const auto sscal = reinterpret_cast<sscal_fn>(dlsym(lib, "cublasSscal_v2"));
  static void* handle = [] {
    void* h = nullptr;
    return reinterpret_cast<create_fn>(dlsym(lib, "cublasCreate_v2"))(&h) == 0 ? h : nullptr;
  }();
  if (handle == nullptr) return;
  const float two = 2.0f;
  copy_x<<<(N + 255) / 256, 256>>>(x, y, N);
  sscal(handle, N, &two, y, 1);
}
