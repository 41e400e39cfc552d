#include "harness/bench_version.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/kernel_failure.h"

namespace kopt::harness {

void* load_solve(const std::string& library, const char* what) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw error(fmt::format("cannot load the {} library {}: {}", what, library, ::dlerror()));
  void* solve = ::dlsym(handle, "solve");
  if (solve == nullptr) throw error(fmt::format("the {} library {} exports no solve()", what, library));
  return solve;
}

bench_version bind_version(const cuda::driver_api& api, void* solve, const kernel::kernel_plan& plan) {
  bench_version v;
  v.call = std::make_unique<solve_call>(solve, *plan.solve);
  v.buffers = std::make_unique<device_buffers>(api, plan.buffers);
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    v.call->set_pointer(plan.buffers[i].param.index, reinterpret_cast<void*>(v.buffers->data(i)));
  }
  for (const auto& s : plan.scalars) v.call->set_scalar(s.param.index, s.value);
  return v;
}

void run_once(const cuda::driver_api& api, bench_version& v, const char* who) {
  v.call->invoke();
  if (const CUresult rc = api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw kernel_failure{"crashed", fmt::format("the {} failed on the device: {}", who, api.describe(rc))};
  }
}

}  // namespace kopt::harness
