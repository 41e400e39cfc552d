#include "abi_buffers.h"

namespace kopt::harness_abi {

json buffers_json(const kernel::kernel_plan& plan, const harness::device_buffers& buffers) {
  json list = json::array();
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    list.push_back(json{{"name", plan.buffers[i].param.name}, {"address", buffers.data(i)}, {"bytes", plan.buffers[i].bytes}});
  }
  return list;
}

}  // namespace kopt::harness_abi
