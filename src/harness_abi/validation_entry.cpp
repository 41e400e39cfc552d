// The validation entry points: the harness's buffer conventions and output comparison, so
// that a Triton kernel's outputs are judged by exactly the rules a CUDA kernel's are.
#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "abi_text.h"
#include "core/json_io.h"
#include "harness/buffer_layout.h"
#include "harness/poison.h"
#include "kernel/element_type.h"
#include "kopt_harness_abi.h"
#include "validate/output_comparison.h"
#include "validate/tolerance.h"

namespace {
using kopt::json;
using kopt::harness_abi::copy_out;

std::string hex_of(const std::vector<std::byte>& bytes) {
  std::string hex;
  for (const std::byte b : bytes) hex += fmt::format("{:02x}", static_cast<unsigned>(b));
  return hex;
}

std::optional<double> optional_number(const json& request, const char* key) {
  const auto found = request.find(key);
  if (found == request.end() || found->is_null()) return std::nullopt;
  return found->get<double>();
}

}  // namespace

extern "C" int kopt_buffer_conventions(char** result_json) {
  json poison = json::object();
  for (const auto& type : kopt::kernel::canonical_element_types()) {
    poison[std::string(type.name)] = hex_of(kopt::harness::poisoned_bytes(type, static_cast<std::size_t>(type.size_bytes)));
  }
  const json conventions{{"guard_bytes", kopt::harness::guard_bytes},
                         {"canary_byte", kopt::harness::canary_byte},
                         {"poison", poison}};
  *result_json = copy_out(kopt::json_text(conventions, -1));
  return 0;
}

extern "C" int kopt_compare_output(const char* request_json, const void* kernel, std::size_t kernel_bytes,
                                   const void* expected, std::size_t expected_bytes, char** result_json) {
  try {
    const json request = json::parse(request_json != nullptr ? request_json : "{}");
    const std::string name = request.at("name").get<std::string>();
    const std::string dtype = request.at("dtype").get<std::string>();
    const auto type = kopt::kernel::element_type_by_name(dtype);
    if (!type) throw std::invalid_argument(fmt::format("output {} has element type {}, which kopt cannot compare", name, dtype));
    if (kernel_bytes != expected_bytes || kernel_bytes % static_cast<std::size_t>(type->size_bytes) != 0) {
      throw std::invalid_argument(fmt::format("output {}: {} bytes from the kernel, {} from the reference", name,
                                              kernel_bytes, expected_bytes));
    }
    const kopt::validate::tolerance_overrides overrides{optional_number(request, "atol"), optional_number(request, "rtol"),
                                                        optional_number(request, "reference_atol"),
                                                        optional_number(request, "reference_rtol")};
    const auto comparison = kopt::validate::compare_output(
        name, *type, std::span(static_cast<const std::byte*>(kernel), kernel_bytes),
        std::span(static_cast<const std::byte*>(expected), expected_bytes),
        kopt::harness::poison_for(*type).element_bits, kopt::validate::resolve_tolerance(*type, overrides));
    *result_json = copy_out(kopt::json_text(kopt::validate::to_json(comparison), -1));
    return 0;
  } catch (const std::exception& e) {
    *result_json = copy_out(e.what());
    return 1;
  }
}
