#include "harness/input_generator.h"

#include <array>
#include <variant>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/driver_check.h"
#include "harness/input_fill.h"
#include "harness/input_generator_ptx.h"

namespace kopt::harness {
namespace {

// The codes of device/input_generator.cu, in the same order as its enums.
int type_code(const kernel::element_type& type) {
  constexpr std::array<std::string_view, 13> names = {"float32", "float64", "float16", "bfloat16", "int8",
                                                      "int16",   "int32",   "int64",   "uint8",    "uint16",
                                                      "uint32",  "uint64",  "bool"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == type.name) return static_cast<int>(i);
  }
  throw error(fmt::format("input generator: no device code for element type {}", type.name));
}

enum distribution_code : int { uniform_real, uniform_integer, choice, normal };

}  // namespace

std::uint64_t call_seed(std::uint64_t seed, const std::string& name, std::uint64_t call_index) {
  // Distinct from buffer_seed(seed, name) for every call, so timed calls never repeat the
  // validation seeds' inputs.
  return buffer_seed(buffer_seed(seed, name) ^ 0x74696d6564ULL, std::to_string(call_index));
}

input_generator::input_generator(const cuda::driver_api& api, const std::vector<kernel::buffer_spec>& buffers)
    : m_api(api), m_buffers(buffers), m_choices(buffers.size(), 0) {
  check_driver_call(api, api.module_load_data(&m_module, input_generator_ptx), "input generator",
                    "loading the generator kernel (cuModuleLoadData)");
  check_driver_call(api, api.module_get_function(&m_kernel, m_module, kernel_name), "input generator",
                    "cuModuleGetFunction");
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const auto& values = buffers[i].values;
    if (values.kind != kernel::distribution_kind::choice || values.choices.empty()) continue;
    std::vector<double> table;
    for (const auto& c : values.choices) table.push_back(kernel::to_double(c));
    check_driver_call(api, api.mem_alloc(&m_choices[i], table.size() * sizeof(double)), "input generator",
                      "cuMemAlloc");
    check_driver_call(api, api.memcpy_htod(m_choices[i], table.data(), table.size() * sizeof(double)),
                      "input generator", "cuMemcpyHtoD");
  }
}

input_generator::~input_generator() {
  for (const CUdeviceptr p : m_choices) {
    if (p != 0) m_api.mem_free(p);
  }
}

void input_generator::generate(std::size_t i, CUdeviceptr target, std::uint64_t generator_seed) {
  const kernel::buffer_spec& spec = m_buffers.at(i);
  const kernel::value_distribution& values = spec.values;
  unsigned long long count = static_cast<unsigned long long>(spec.elements);
  int type = type_code(spec.param.element);
  int distribution = uniform_real;
  double low = 0;
  double high = 0;
  long long integer_low = 0;
  long long integer_high = 1;
  int choice_count = 0;
  double mean = values.mean;
  double stddev = values.stddev;
  switch (values.kind) {
    case kernel::distribution_kind::uniform:
      if (std::holds_alternative<std::int64_t>(values.low) &&
          std::holds_alternative<std::int64_t>(values.high) && !spec.param.element.is_floating()) {
        distribution = uniform_integer;
        integer_low = std::get<std::int64_t>(values.low);
        integer_high = std::get<std::int64_t>(values.high);
      } else {
        low = kernel::to_double(values.low);
        high = kernel::to_double(values.high);
      }
      break;
    case kernel::distribution_kind::choice:
      distribution = choice;
      choice_count = static_cast<int>(values.choices.size());
      break;
    case kernel::distribution_kind::normal:
      distribution = normal;
      break;
  }
  CUdeviceptr choices = m_choices[i];
  unsigned long long seed = generator_seed;
  void* arguments[] = {&target,       &count,   &type,         &distribution, &low,    &high, &integer_low,
                       &integer_high, &choices, &choice_count, &mean,         &stddev, &seed};
  // A grid that covers any current GPU a few times over; the kernel strides the rest.
  check_driver_call(m_api,
                    m_api.launch_kernel(m_kernel, 1024, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr),
                    "input generator", "cuLaunchKernel");
}

void prepare_call_inputs(input_generator& generator, const kernel::kernel_plan& plan, device_buffers& target,
                         std::uint64_t seed, std::uint64_t call) {
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == kernel::buffer_role::out) {
      target.poison(i);
    } else {
      generator.generate(i, target.data(i), call_seed(seed, b.param.name, call));
    }
  }
}

}  // namespace kopt::harness
