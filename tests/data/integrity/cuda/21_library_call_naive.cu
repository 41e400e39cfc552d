// kopt: x[N] y[N]
// Class 21, library call (naive): hands part of the work to cuBLAS (y = x), loaded with dlopen
// so that the library shows no link-time dependency, with a fresh handle every call; its own
// kernel doubles y. (A version that hands all of its work over is a ghost kernel: class 26.)
#include <dlfcn.h>

using create_fn = int (*)(void**);
using destroy_fn = int (*)(void*);
using scopy_fn = int (*)(void*, int, const float*, int, float*, int);

__global__ void double_in_place(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= 2.0f;
}

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
  void* handle = nullptr;
  if (create(&handle) != 0) return;
  scopy(handle, N, x, 1, y, 1);
  destroy(handle);
  double_in_place<<<(N + 255) / 256, 256>>>(y, N);
}
