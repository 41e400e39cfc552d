#pragma once
// Building a GPU test program's kernels before its tests run, several at once. A program that
// benches dozens of kernels one after another otherwise waits for nvcc once per kernel (about 2 s
// each), serially, while the GPU machine's other cores idle; with the builds in the compile
// cache that run_kopt gives every kopt it starts, each bench finds its kernel built. The benches
// still run the same compile step and still check what it built; only the waiting is moved.

#include <filesystem>
#include <vector>

namespace kopt::testing {

// `kopt compile FILE` for every file, as many at a time as the machine has cores, into
// run_kopt's private cache. A file that does not build is left to its test, which says why;
// one line on stdout tells how many were built ahead and how long it took.
void compile_ahead(const std::vector<std::filesystem::path>& kernel_files);

// Every `.cu` file directly in `folder`, by name.
std::vector<std::filesystem::path> cuda_files_in(const std::filesystem::path& folder);

}  // namespace kopt::testing
