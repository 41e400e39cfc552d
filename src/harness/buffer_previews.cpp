#include "harness/buffer_previews.h"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "validate/element_codec.h"

namespace kopt::harness {

std::vector<buffer_preview> preview_buffers(const kernel::kernel_plan& plan, const device_buffers& buffers) {
  std::vector<buffer_preview> previews;
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const kernel::buffer_spec& spec = plan.buffers[i];
    const kernel::element_type& type = spec.param.element;
    buffer_preview p;
    p.buffer = spec.param.name;
    p.role = std::string(kernel::to_string(spec.role));
    p.type = std::string(type.name);
    p.elements = spec.elements;
    const std::size_t shown = std::min<std::size_t>(preview_elements, static_cast<std::size_t>(std::max<std::int64_t>(spec.elements, 0)));
    std::vector<std::byte> bytes(shown * static_cast<std::size_t>(type.size_bytes));
    if (!bytes.empty()) {
      buffers.memory().download(bytes.data(), buffers.data(i), bytes.size(), fmt::format("previewing {}", p.buffer));
    }
    for (std::size_t k = 0; k < shown; ++k) {
      p.first.push_back(fmt::format("{:.6g}", validate::read_element(std::span<const std::byte>(bytes), type, k)));
    }
    previews.push_back(std::move(p));
  }
  return previews;
}

}  // namespace kopt::harness
