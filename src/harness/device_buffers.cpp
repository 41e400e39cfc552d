#include "harness/device_buffers.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "harness/poison.h"

namespace kopt::harness {

device_buffers::device_buffers(buffer_memory& memory, const std::vector<kernel::buffer_spec>& buffers)
    : m_memory(memory), m_buffers(buffers) {
  for (const auto& spec : buffers) {
    allocation a;
    a.layout = layout_for(static_cast<std::size_t>(spec.bytes));
    std::string problem;
    const auto base = memory.allocate(a.layout.allocation_bytes, problem);
    if (!base) {
      for (const auto& made : m_allocations) memory.release(made.base);
      throw error(fmt::format("cannot allocate {} for buffer {}: {} (make the dimensions smaller)",
                              format_bytes(static_cast<double>(a.layout.allocation_bytes)), spec.param.name, problem));
    }
    a.base = *base;
    m_allocations.push_back(a);
  }
}

device_buffers::~device_buffers() {
  for (const auto& a : m_allocations) m_memory.release(a.base);
}

CUdeviceptr device_buffers::data(std::size_t i) const {
  return m_allocations.at(i).base + m_allocations.at(i).layout.data_offset;
}

void device_buffers::prepare(const std::vector<std::vector<std::byte>>& contents) {
  for (std::size_t i = 0; i < m_allocations.size(); ++i) {
    const allocation& a = m_allocations[i];
    const kernel::buffer_spec& spec = m_buffers[i];
    m_memory.fill8(a.base, canary_byte, a.layout.allocation_bytes, "filling guard regions");
    if (spec.role == kernel::buffer_role::out) {
      poison(i);
    } else {
      m_memory.upload(data(i), contents.at(i).data(), a.layout.data_bytes, fmt::format("uploading {}", spec.param.name));
    }
  }
  m_memory.synchronize("preparing buffers");
}

void device_buffers::reset_to_canary() {
  for (const allocation& a : m_allocations) {
    m_memory.fill8(a.base, canary_byte, a.layout.allocation_bytes, "filling guard regions");
  }
}

void device_buffers::poison(std::size_t i) {
  const kernel::buffer_spec& spec = m_buffers.at(i);
  const poison_pattern pattern = poison_for(spec.param.element);
  const std::size_t words = m_allocations.at(i).layout.data_bytes / static_cast<std::size_t>(pattern.fill_word_bytes);
  const std::string what = fmt::format("poisoning {}", spec.param.name);
  if (pattern.fill_word_bytes == 4) {
    m_memory.fill32(data(i), pattern.fill_word, words, what);
  } else if (pattern.fill_word_bytes == 2) {
    m_memory.fill16(data(i), static_cast<std::uint16_t>(pattern.fill_word), words, what);
  } else {
    m_memory.fill8(data(i), static_cast<std::uint8_t>(pattern.fill_word), words, what);
  }
}

void device_buffers::upload(std::size_t i, const std::vector<std::byte>& bytes) {
  const allocation& a = m_allocations.at(i);
  m_memory.upload(data(i), bytes.data(), std::min(bytes.size(), a.layout.data_bytes),
                  fmt::format("uploading {}", m_buffers[i].param.name));
  m_memory.synchronize("uploading");
}

std::vector<std::byte> device_buffers::download(std::size_t i) const {
  std::vector<std::byte> bytes(m_allocations.at(i).layout.data_bytes);
  m_memory.download(bytes.data(), data(i), bytes.size(), fmt::format("downloading {}", m_buffers[i].param.name));
  return bytes;
}

std::vector<std::string> device_buffers::guard_violations() const {
  std::vector<std::string> found;
  for (std::size_t i = 0; i < m_allocations.size(); ++i) {
    const allocation& a = m_allocations[i];
    std::vector<std::uint8_t> guard(a.layout.data_offset);
    std::vector<std::uint8_t> tail(a.layout.allocation_bytes - a.layout.tail_offset);
    m_memory.download(guard.data(), a.base, guard.size(), "reading guard regions");
    m_memory.download(tail.data(), a.base + a.layout.tail_offset, tail.size(), "reading guard regions");
    if (const auto v = check_guard_before(guard)) found.push_back(describe(*v, m_buffers[i].param.name));
    if (const auto v = check_guard_after(tail)) found.push_back(describe(*v, m_buffers[i].param.name));
  }
  return found;
}

}  // namespace kopt::harness
