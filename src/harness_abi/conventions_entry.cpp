// The buffer conventions entry point: the element types kopt knows, with their poison, so
// that the Python runner names a tensor's element type as the harness does.
#include <string>

#include "abi_text.h"
#include "core/json_io.h"
#include "harness/buffer_layout.h"
#include "harness/poison.h"
#include "kernel/element_type.h"
#include "kopt_harness_abi.h"

namespace {
using kopt::json;
using kopt::harness_abi::copy_out;

}  // namespace

extern "C" int kopt_buffer_conventions(char** result_json) {
  json poison = json::object();
  for (const auto& type : kopt::kernel::canonical_element_types()) {
    poison[std::string(type.name)] = kopt::harness::poison_hex(type);
  }
  const json conventions{{"guard_bytes", kopt::harness::guard_bytes},
                         {"canary_byte", kopt::harness::canary_byte},
                         {"poison", poison}};
  *result_json = copy_out(kopt::json_text(conventions, -1));
  return 0;
}
