#include "harness/solve_call.h"

#include <ffi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <variant>

#include <fmt/format.h>

#include "core/error.h"
#include "kernel/value_distribution.h"

namespace kopt::harness {

namespace {

ffi_type* ffi_type_for(const kernel::parameter& p) {
  if (p.is_pointer) return &ffi_type_pointer;
  const auto name = p.element.name;
  if (name == "float32") return &ffi_type_float;
  if (name == "float64") return &ffi_type_double;
  if (name == "bool" || name == "uint8") return &ffi_type_uint8;
  if (name == "int8") return &ffi_type_sint8;
  if (name == "int16") return &ffi_type_sint16;
  if (name == "uint16") return &ffi_type_uint16;
  if (name == "int32") return &ffi_type_sint32;
  if (name == "uint32") return &ffi_type_uint32;
  if (name == "int64") return &ffi_type_sint64;
  if (name == "uint64") return &ffi_type_uint64;
  throw error(fmt::format("solve() parameter {} is a {} scalar, which kopt cannot pass: use float or "
                          "an integer type for scalars",
                          p.name, name));
}

}  // namespace

struct solve_call::state {
  // Storage large enough for any scalar C type solve() may take, where libffi reads it.
  union argument_slot {
    void* pointer;
    float f32;
    double f64;
    std::int8_t i8;
    std::uint8_t u8;
    std::int16_t i16;
    std::uint16_t u16;
    std::int32_t i32;
    std::uint32_t u32;
    std::int64_t i64;
    std::uint64_t u64;
  };

  void* function = nullptr;
  kernel::signature signature;
  ffi_cif cif{};
  std::vector<ffi_type*> types;
  std::vector<argument_slot> slots;
  std::vector<void*> slot_addresses;
  std::vector<bool> set;
};

solve_call::solve_call(void* function, const kernel::signature& signature) : m_state(std::make_unique<state>()) {
  state& s = *m_state;
  s.function = function;
  s.signature = signature;
  for (const auto& p : signature.parameters) s.types.push_back(ffi_type_for(p));
  s.slots.resize(s.types.size());
  s.set.assign(s.types.size(), false);
  for (auto& slot : s.slots) s.slot_addresses.push_back(&slot);
  if (ffi_prep_cif(&s.cif, FFI_DEFAULT_ABI, static_cast<unsigned>(s.types.size()), &ffi_type_void,
                   s.types.data()) != FFI_OK) {
    std::fprintf(stderr, "kopt: internal error: ffi_prep_cif failed for solve()\n");
    std::abort();
  }
}

solve_call::~solve_call() = default;

void solve_call::set_pointer(int index, void* device_pointer) {
  m_state->slots.at(static_cast<std::size_t>(index)).pointer = device_pointer;
  m_state->set.at(static_cast<std::size_t>(index)) = true;
}

void solve_call::set_scalar(int index, const kernel::scalar_value& value) {
  const auto i = static_cast<std::size_t>(index);
  const kernel::parameter& p = m_state->signature.parameters.at(i);
  state::argument_slot& slot = m_state->slots.at(i);
  const double as_double = kernel::to_double(value);
  const std::int64_t as_integer = std::visit([](auto v) { return static_cast<std::int64_t>(v); }, value);
  const auto name = p.element.name;
  if (name == "float32") slot.f32 = static_cast<float>(as_double);
  else if (name == "float64") slot.f64 = as_double;
  else if (name == "bool" || name == "uint8") slot.u8 = static_cast<std::uint8_t>(as_integer);
  else if (name == "int8") slot.i8 = static_cast<std::int8_t>(as_integer);
  else if (name == "int16") slot.i16 = static_cast<std::int16_t>(as_integer);
  else if (name == "uint16") slot.u16 = static_cast<std::uint16_t>(as_integer);
  else if (name == "int32") slot.i32 = static_cast<std::int32_t>(as_integer);
  else if (name == "uint32") slot.u32 = static_cast<std::uint32_t>(as_integer);
  else if (name == "int64") slot.i64 = as_integer;
  else slot.u64 = static_cast<std::uint64_t>(as_integer);
  m_state->set.at(i) = true;
}

void solve_call::invoke() {
  for (std::size_t i = 0; i < m_state->set.size(); ++i) {
    if (!m_state->set[i]) {
      std::fprintf(stderr, "kopt: internal error: solve() argument %zu was not set\n", i);
      std::abort();
    }
  }
  ffi_call(&m_state->cif, FFI_FN(m_state->function), nullptr, m_state->slot_addresses.data());
}

}  // namespace kopt::harness
