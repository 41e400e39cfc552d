#include "harness/input_fill.h"

#include <random>
#include <variant>

#include "validate/element_codec.h"

namespace kopt::harness {

std::uint64_t buffer_seed(std::uint64_t seed, std::string_view buffer_name) {
  // FNV-1a of the name, then splitmix64 of the combination.
  std::uint64_t name_hash = 0xcbf29ce484222325ULL;
  for (const char c : buffer_name) {
    name_hash ^= static_cast<unsigned char>(c);
    name_hash *= 0x100000001b3ULL;
  }
  std::uint64_t z = seed ^ name_hash;
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void fill_input(std::span<std::byte> bytes, const kernel::element_type& type,
                const kernel::value_distribution& values, std::uint64_t generator_seed) {
  std::mt19937_64 generator(generator_seed);
  const std::size_t count = bytes.size() / static_cast<std::size_t>(type.size_bytes);
  const validate::element_codec& codec = validate::codec_for(type);
  const auto store = [&](std::size_t i, double v) { codec.write(bytes, i, v); };
  switch (values.kind) {
    case kernel::distribution_kind::uniform: {
      if (std::holds_alternative<std::int64_t>(values.low) && std::holds_alternative<std::int64_t>(values.high) &&
          !type.is_floating()) {
        std::uniform_int_distribution<std::int64_t> pick(std::get<std::int64_t>(values.low),
                                                         std::get<std::int64_t>(values.high) - 1);
        for (std::size_t i = 0; i < count; ++i) store(i, static_cast<double>(pick(generator)));
      } else {
        std::uniform_real_distribution<double> pick(kernel::to_double(values.low),
                                                    kernel::to_double(values.high));
        for (std::size_t i = 0; i < count; ++i) store(i, pick(generator));
      }
      break;
    }
    case kernel::distribution_kind::choice: {
      std::uniform_int_distribution<std::size_t> pick(0, values.choices.size() - 1);
      for (std::size_t i = 0; i < count; ++i) store(i, kernel::to_double(values.choices[pick(generator)]));
      break;
    }
    case kernel::distribution_kind::normal: {
      std::normal_distribution<double> pick(values.mean, values.stddev);
      for (std::size_t i = 0; i < count; ++i) store(i, pick(generator));
      break;
    }
  }
}

}  // namespace kopt::harness
