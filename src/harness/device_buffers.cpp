#include "harness/device_buffers.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "harness/poison.h"

namespace kopt::harness {
namespace {

void check(const cuda::driver_api& api, CUresult rc, const std::string& what) {
  if (rc != CUDA_SUCCESS) throw error(fmt::format("{} failed: {}", what, api.describe(rc)));
}

}  // namespace

device_buffers::device_buffers(const cuda::driver_api& api, const std::vector<kernel::buffer_spec>& buffers)
    : m_api(api), m_buffers(buffers) {
  for (const auto& spec : buffers) {
    allocation a;
    a.layout = layout_for(static_cast<std::size_t>(spec.bytes));
    if (const CUresult rc = api.mem_alloc(&a.base, a.layout.allocation_bytes); rc != CUDA_SUCCESS) {
      throw error(fmt::format("cannot allocate {} for buffer {}: {} (make the dimensions smaller)",
                              format_bytes(static_cast<double>(a.layout.allocation_bytes)), spec.param.name,
                              api.describe(rc)));
    }
    m_allocations.push_back(a);
  }
}

device_buffers::~device_buffers() {
  for (const auto& a : m_allocations) m_api.mem_free(a.base);
}

CUdeviceptr device_buffers::data(std::size_t i) const {
  return m_allocations.at(i).base + m_allocations.at(i).layout.data_offset;
}

void device_buffers::prepare(const std::vector<std::vector<std::byte>>& contents) {
  for (std::size_t i = 0; i < m_allocations.size(); ++i) {
    const allocation& a = m_allocations[i];
    const kernel::buffer_spec& spec = m_buffers[i];
    check(m_api, m_api.memset_d8(a.base, canary_byte, a.layout.allocation_bytes), "filling guard regions");
    if (spec.role == kernel::buffer_role::out) {
      poison(i);
    } else {
      check(m_api, m_api.memcpy_htod(data(i), contents.at(i).data(), a.layout.data_bytes),
            fmt::format("uploading {}", spec.param.name));
    }
  }
  check(m_api, m_api.ctx_synchronize(), "preparing buffers");
}

void device_buffers::reset_to_canary() {
  for (const allocation& a : m_allocations) {
    check(m_api, m_api.memset_d8(a.base, canary_byte, a.layout.allocation_bytes), "filling guard regions");
  }
}

void device_buffers::poison(std::size_t i) {
  const kernel::buffer_spec& spec = m_buffers.at(i);
  const poison_pattern pattern = poison_for(spec.param.element);
  const std::size_t words = m_allocations.at(i).layout.data_bytes / static_cast<std::size_t>(pattern.fill_word_bytes);
  const CUdeviceptr target = data(i);
  const CUresult rc = pattern.fill_word_bytes == 4   ? m_api.memset_d32(target, pattern.fill_word, words)
                      : pattern.fill_word_bytes == 2 ? m_api.memset_d16(target, static_cast<unsigned short>(pattern.fill_word), words)
                                                     : m_api.memset_d8(target, static_cast<unsigned char>(pattern.fill_word), words);
  check(m_api, rc, fmt::format("poisoning {}", spec.param.name));
}

void device_buffers::upload(std::size_t i, const std::vector<std::byte>& bytes) {
  const allocation& a = m_allocations.at(i);
  check(m_api, m_api.memcpy_htod(data(i), bytes.data(), std::min(bytes.size(), a.layout.data_bytes)),
        fmt::format("uploading {}", m_buffers[i].param.name));
  check(m_api, m_api.ctx_synchronize(), "uploading");
}

std::vector<std::byte> device_buffers::download(std::size_t i) const {
  std::vector<std::byte> bytes(m_allocations.at(i).layout.data_bytes);
  check(m_api, m_api.memcpy_dtoh(bytes.data(), data(i), bytes.size()), fmt::format("downloading {}", m_buffers[i].param.name));
  return bytes;
}

std::vector<std::string> device_buffers::guard_violations() const {
  std::vector<std::string> found;
  for (std::size_t i = 0; i < m_allocations.size(); ++i) {
    const allocation& a = m_allocations[i];
    std::vector<std::uint8_t> guard(a.layout.data_offset);
    std::vector<std::uint8_t> tail(a.layout.allocation_bytes - a.layout.tail_offset);
    check(m_api, m_api.memcpy_dtoh(guard.data(), a.base, guard.size()), "reading guard regions");
    check(m_api, m_api.memcpy_dtoh(tail.data(), a.base + a.layout.tail_offset, tail.size()), "reading guard regions");
    if (const auto v = check_guard_before(guard)) found.push_back(describe(*v, m_buffers[i].param.name));
    if (const auto v = check_guard_after(tail)) found.push_back(describe(*v, m_buffers[i].param.name));
  }
  return found;
}

}  // namespace kopt::harness
