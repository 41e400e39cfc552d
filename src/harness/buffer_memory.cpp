#include "harness/buffer_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/buffer_compare_ptx.h"

namespace kopt::harness {
namespace {

class device_memory final : public buffer_memory {
 public:
  explicit device_memory(const cuda::driver_api& api) : m_api(api) {}
  ~device_memory() override {
    if (m_differs != 0) m_api.mem_free(m_differs);
    if (m_staging != nullptr) m_api.mem_free_host(m_staging);
  }
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;

  std::optional<address> allocate(std::size_t bytes, std::string& problem) override {
    CUdeviceptr at = 0;
    if (const CUresult rc = m_api.mem_alloc(&at, bytes); rc != CUDA_SUCCESS) {
      problem = m_api.describe(rc);
      return std::nullopt;
    }
    return at;
  }
  void release(address at) noexcept override { m_api.mem_free(at); }

  void fill8(address at, std::uint8_t value, std::size_t count, const std::string& what) override {
    check(m_api.memset_d8(at, value, count), what);
  }
  void fill16(address at, std::uint16_t value, std::size_t count, const std::string& what) override {
    check(m_api.memset_d16(at, value, count), what);
  }
  void fill32(address at, std::uint32_t value, std::size_t count, const std::string& what) override {
    check(m_api.memset_d32(at, value, count), what);
  }
  void upload(address to, const void* from, std::size_t bytes, const std::string& what) override {
    check(m_api.memcpy_htod(to, from, bytes), what);
  }
  void download(void* to, address from, std::size_t bytes, const std::string& what) const override {
    check(m_api.memcpy_dtoh(to, from, bytes), what);
  }
  void download_in_pieces(address from, std::size_t bytes, const piece_taker& take,
                          const std::string& what) const override {
    std::byte* staging = staging_buffer();
    std::vector<std::byte> pageable;  // only when page-locked memory was refused
    if (staging == nullptr) {
      pageable.resize(std::min(bytes, staging_bytes));
      staging = pageable.data();
    }
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t piece = std::min(bytes - done, staging_bytes);
      check(m_api.memcpy_dtoh(staging, from + done, piece), what);
      take(std::span<const std::byte>(staging, piece));
      done += piece;
    }
  }
  void copy(address to, address from, std::size_t bytes, const std::string& what) override {
    check(m_api.memcpy_dtod(to, from, bytes), what);
  }
  bool same_bytes(address a, address b, std::size_t bytes, const std::string& what) override {
    if (m_compare == nullptr) load_compare(what);
    check(m_api.memset_d32(m_differs, 0, 1), what);
    unsigned long long count = bytes;
    void* arguments[] = {&a, &b, &count, &m_differs};
    // Enough blocks to keep any current GPU's memory system busy; the loop strides the rest.
    check(m_api.launch_kernel(m_compare, 1024, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr), what);
    std::uint32_t differs = 0;
    check(m_api.memcpy_dtoh(&differs, m_differs, sizeof differs), what);
    return differs == 0;
  }
  void synchronize(const char* what) override { check(m_api.ctx_synchronize(), what); }
  std::optional<std::string> finish_call() override {
    if (const CUresult rc = m_api.ctx_synchronize(); rc != CUDA_SUCCESS) return m_api.describe(rc);
    return std::nullopt;
  }
  bool on_device() const override { return true; }
  const cuda::driver_api* driver() const override { return &m_api; }

 private:
  void check(CUresult rc, const std::string& what) const {
    if (rc != CUDA_SUCCESS) throw error(fmt::format("{} failed: {}", what, m_api.describe(rc)));
  }

  // The comparison kernel, loaded into the current context on first use (the module lives as
  // long as the context).
  void load_compare(const std::string& what) {
    CUmodule module = nullptr;
    check(m_api.module_load_data(&module, buffer_compare_ptx), what + " (loading kopt's comparison kernel)");
    check(m_api.module_get_function(&m_compare, module, "kopt_buffers_differ"), what);
    check(m_api.mem_alloc(&m_differs, sizeof(std::uint32_t)), what);
  }

  // Page-locked, made on first use and kept: null when the driver refuses it (a limit on
  // locked memory), and then pieces come through pageable memory.
  std::byte* staging_buffer() const {
    if (m_staging == nullptr && !m_staging_refused) {
      void* at = nullptr;
      m_staging_refused = m_api.mem_alloc_host(&at, staging_bytes) != CUDA_SUCCESS;
      m_staging = static_cast<std::byte*>(at);
    }
    return m_staging_refused ? nullptr : static_cast<std::byte*>(m_staging);
  }

  static constexpr std::size_t staging_bytes = std::size_t{16} << 20;  // [bytes]

  const cuda::driver_api& m_api;
  CUfunction m_compare = nullptr;
  CUdeviceptr m_differs = 0;
  mutable void* m_staging = nullptr;
  mutable bool m_staging_refused = false;
};

// Host memory behaves as an always-synchronous device: every operation is done on return.
class host_memory final : public buffer_memory {
 public:
  std::optional<address> allocate(std::size_t bytes, std::string& problem) override {
    void* at = std::malloc(bytes == 0 ? 1 : bytes);
    if (at == nullptr) {
      problem = "out of host memory";
      return std::nullopt;
    }
    return reinterpret_cast<address>(at);
  }
  void release(address at) noexcept override { std::free(pointer(at)); }

  void fill8(address at, std::uint8_t value, std::size_t count, const std::string&) override {
    std::memset(pointer(at), value, count);
  }
  void fill16(address at, std::uint16_t value, std::size_t count, const std::string&) override { fill(at, value, count); }
  void fill32(address at, std::uint32_t value, std::size_t count, const std::string&) override { fill(at, value, count); }
  void upload(address to, const void* from, std::size_t bytes, const std::string&) override {
    if (bytes > 0) std::memcpy(pointer(to), from, bytes);
  }
  void download(void* to, address from, std::size_t bytes, const std::string&) const override {
    if (bytes > 0) std::memcpy(to, pointer(from), bytes);
  }
  void download_in_pieces(address from, std::size_t bytes, const piece_taker& take,
                          const std::string&) const override {
    if (bytes > 0) take(std::span<const std::byte>(static_cast<const std::byte*>(pointer(from)), bytes));
  }
  void copy(address to, address from, std::size_t bytes, const std::string&) override {
    if (bytes > 0) std::memmove(pointer(to), pointer(from), bytes);
  }
  bool same_bytes(address a, address b, std::size_t bytes, const std::string&) override {
    return bytes == 0 || std::memcmp(pointer(a), pointer(b), bytes) == 0;
  }
  void synchronize(const char*) override {}
  std::optional<std::string> finish_call() override { return std::nullopt; }
  bool on_device() const override { return false; }
  const cuda::driver_api* driver() const override { return nullptr; }

 private:
  static void* pointer(address at) { return reinterpret_cast<void*>(at); }

  template <typename Word>
  static void fill(address at, Word value, std::size_t count) {
    auto* words = static_cast<Word*>(pointer(at));
    for (std::size_t i = 0; i < count; ++i) std::memcpy(words + i, &value, sizeof value);
  }
};

}  // namespace

std::unique_ptr<buffer_memory> make_device_memory(const cuda::driver_api& api) {
  return std::make_unique<device_memory>(api);
}

std::unique_ptr<buffer_memory> make_host_memory() { return std::make_unique<host_memory>(); }

}  // namespace kopt::harness
