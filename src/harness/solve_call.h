#pragma once
// Calling the user's `solve` with the argument list its signature declares, whatever that
// list is: pointers in their slots, scalars converted to the parameter's exact C type.
// libffi builds the call for the platform ABI, so no per-signature code is generated.

#include <cstdint>
#include <memory>
#include <vector>

#include "kernel/scalar_binding.h"
#include "kernel/signature.h"

namespace kopt::harness {

class solve_call {
 public:
  // `function` is the address of solve(). Throws kopt::error for a scalar type that cannot
  // be passed (float16/bfloat16 scalars).
  solve_call(void* function, const kernel::signature& signature);
  ~solve_call();
  solve_call(const solve_call&) = delete;
  solve_call& operator=(const solve_call&) = delete;

  // Sets pointer parameter `index` (position in solve()'s list).
  void set_pointer(int index, void* device_pointer);
  // Sets scalar parameter `index` from its bound value.
  void set_scalar(int index, const kernel::scalar_value& value);

  // Calls solve() with the arguments set so far (every parameter must have been set).
  void invoke();

 private:
  struct state;
  std::unique_ptr<state> m_state;
};

}  // namespace kopt::harness
