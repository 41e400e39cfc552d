#pragma once
// Fresh contents for input and inout buffers on the device, drawn from each buffer's
// distribution with a seed per (run seed, buffer, call): every timed call gets inputs no
// earlier call saw, so no remembered answer fits them. The same seed gives the same bytes,
// which is how a checked call's inputs are made again for the reference.

#include <cstdint>
#include <string>
#include <vector>

#include <cuda.h>

#include "cuda/driver_api.h"
#include "harness/device_buffers.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

// The generator seed of buffer `name` for call `call_index` of a run seeded with `seed`.
std::uint64_t call_seed(std::uint64_t seed, const std::string& name, std::uint64_t call_index);

class input_generator {
 public:
  // Loads the generator kernel into the current context and uploads the choice tables of
  // `buffers`. Throws kopt::error on a driver failure.
  input_generator(const cuda::driver_api& api, const std::vector<kernel::buffer_spec>& buffers);
  ~input_generator();
  input_generator(const input_generator&) = delete;
  input_generator& operator=(const input_generator&) = delete;

  // Enqueues the fill of buffer `i` (an `in` or `inout` buffer, `elements` long at `target`)
  // on the default stream; no synchronisation.
  void generate(std::size_t i, CUdeviceptr target, std::uint64_t generator_seed);

  // The kernel's name, so that its activity records are known as kopt's own.
  static constexpr const char* kernel_name = "kopt_generate_inputs";

 private:
  const cuda::driver_api& m_api;
  const std::vector<kernel::buffer_spec>& m_buffers;
  std::vector<CUdeviceptr> m_choices;  // per buffer: its choice table, 0 when none
  CUmodule m_module = nullptr;
  CUfunction m_kernel = nullptr;
};

// The inputs of timed call `call` of a run seeded with `seed`, made in `target`, and its
// outputs poisoned: enqueued on the default stream, no synchronisation. The kernel's process
// does this before each of its calls, the reference's to make a checked call's inputs again.
void prepare_call_inputs(input_generator& generator, const kernel::kernel_plan& plan, device_buffers& target,
                         std::uint64_t seed, std::uint64_t call);

}  // namespace kopt::harness
