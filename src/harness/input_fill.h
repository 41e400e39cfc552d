#pragma once
// The host-side contents of an input (or inout) buffer: values drawn from the buffer's
// distribution with a generator seeded by (--seed, buffer name), so the same seed gives the
// same bytes on every run and every machine running the same kopt build.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "harness/buffer_contents.h"
#include "kernel/buffer_plan.h"
#include "kernel/element_type.h"
#include "kernel/value_distribution.h"

namespace kopt::harness {

// The generator seed of one buffer: `seed` mixed with the buffer's name.
std::uint64_t buffer_seed(std::uint64_t seed, std::string_view buffer_name);

// Fills `bytes` (a whole number of elements of `type`) from `values`.
void fill_input(std::span<std::byte> bytes, const kernel::element_type& type,
                const kernel::value_distribution& values, std::uint64_t generator_seed);

}  // namespace kopt::harness
