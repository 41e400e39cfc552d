#pragma once
// Which kernels the timed calls of a version ran, and whose they are (EXPLOITS.md #26): the
// parts of the child report and the bench result that name them.

#include <cstdint>
#include <string>
#include <vector>

#include "core/document.h"

namespace kopt::harness {

// Where a kernel came from: compiled from the version's own source (its library's kernels; for
// a Triton module, what Triton compiled for it), or not (a library's: cuBLAS, torch, ...).
enum class kernel_source { version, other };
BOOST_DESCRIBE_ENUM(kernel_source, version, other)

// One kernel the timed calls ran, as the driver names it (mangled), and in how many calls.
struct kernel_ran {
  std::string name;
  kernel_source source = kernel_source::version;
  std::uint64_t calls = 0;
};
BOOST_DESCRIBE_STRUCT(kernel_ran, (), (name, source, calls))

// The timed calls that ran exactly this set of kernels (sorted names), and how many they were.
struct kernel_set_record {
  std::vector<std::string> kernels;
  std::uint64_t calls = 0;
};
BOOST_DESCRIBE_STRUCT(kernel_set_record, (), (kernels, calls))

}  // namespace kopt::harness
