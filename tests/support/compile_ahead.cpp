#include "support/compile_ahead.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "support/kopt_process.h"

namespace kopt::testing {
namespace fs = std::filesystem;

void compile_ahead(const std::vector<fs::path>& kernel_files) {
  const auto started = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next = 0;
  std::atomic<int> failed = 0;
  const auto build_until_none_left = [&] {
    for (std::size_t i = next++; i < kernel_files.size(); i = next++) {
      if (run_kopt({"compile", kernel_files[i].string(), "--json"}).exit_code != 0) ++failed;
    }
  };
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(kernel_files.size(), 1));
  std::vector<std::jthread> pool;
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(build_until_none_left);
  pool.clear();  // joins
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  std::printf(
      "compiled %zu kernels ahead with %zu builders in %.1f s (%d did not build: their tests say why)\n",
      kernel_files.size(), workers, took.count(), failed.load());
  std::fflush(stdout);
}

std::vector<fs::path> cuda_files_in(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".cu") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace kopt::testing
