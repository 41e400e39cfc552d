#include "harness/bench_version.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/kernel_failure.h"
#include "harness/solve_call.h"

namespace kopt::harness {
namespace {

class solve_version final : public version_under_test {
 public:
  solve_version(void* solve, const kernel::signature& signature) : m_call(solve, signature) {}
  solve_call& call() { return m_call; }
  void invoke() override { m_call.invoke(); }

 private:
  solve_call m_call;
};

}  // namespace

void* load_solve(const std::string& library, const char* what) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw error(fmt::format("cannot load the {} library {}: {}", what, library, ::dlerror()));
  void* solve = ::dlsym(handle, "solve");
  if (solve == nullptr) throw error(fmt::format("the {} library {} exports no solve()", what, library));
  return solve;
}

bench_version bind_version(buffer_memory& memory, void* solve, const kernel::kernel_plan& plan) {
  auto version = std::make_unique<solve_version>(solve, *plan.solve);
  bench_version v;
  v.buffers = std::make_unique<device_buffers>(memory, plan.buffers);
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    version->call().set_pointer(plan.buffers[i].param.index, reinterpret_cast<void*>(v.buffers->data(i)));
  }
  for (const auto& s : plan.scalars) version->call().set_scalar(s.param.index, s.value);
  v.call = std::move(version);
  return v;
}

void run_once(bench_version& v, const char* who) {
  v.call->invoke();
  if (const auto problem = v.buffers->memory().finish_call()) {
    throw kernel_failure{run_status::crashed, fmt::format("the {} failed on the device: {}", who, *problem)};
  }
}

}  // namespace kopt::harness
