#pragma once
// The functions a shared library defines, read from its ELF symbol tables (.symtab and
// .dynsym), local ones included. nvcc gives every __global__ function a host-side stub of the
// same (mangled) name as the kernel the driver reports, so these names tell the kernels
// compiled from a version's own source from a library's (EXPLOITS.md #26).

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

namespace kopt::harness {

// Names of the defined functions in an ELF64 little-endian image; empty for anything else
// (a truncated or malformed image yields what could be read within its bounds). Pure.
std::set<std::string> function_names_in_elf(std::string_view image);

// The same for a file; empty when it cannot be read.
std::set<std::string> function_names_in_file(const std::filesystem::path& path);

// `name` without the internal-linkage marks (Itanium's `L` before a component) of its leading
// name: `_ZN7cutlassL13device_kernelI...` gives `_ZN7cutlass13device_kernelI...`. A kernel of
// internal linkage (CUTLASS's device_kernel) has its host stub mangled with the mark while the
// driver names the kernel without it (seen on an H200 with CUDA 13.0). Pure.
std::string without_internal_linkage(std::string_view name);

// The names by which the driver may report the kernels of a library: its function names, and
// for those with internal-linkage marks, the names without them.
std::set<std::string> kernel_names_in_file(const std::filesystem::path& path);

}  // namespace kopt::harness
