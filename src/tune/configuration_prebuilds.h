#pragma once
// The builds of the configurations a strategy will measure next, run on the CPU's cores while
// the GPU measures the current one: each goes into the compile cache, where the configuration's
// bench then finds it. A build that fails here is built again, and reported, by the bench.

#include <cstddef>
#include <future>
#include <map>
#include <string>

#include "compile/compiler.h"
#include "kernel/tune_space.h"

namespace kopt::tune {

class configuration_prebuilds {
 public:
  // `base`: the kernel's build without the configuration's -D values; at most `parallel`
  // builds at once (0: none, for a kernel with nothing to build ahead).
  configuration_prebuilds(compile::compile_request base, std::size_t parallel);
  ~configuration_prebuilds();  // waits for the builds still running
  configuration_prebuilds(const configuration_prebuilds&) = delete;
  configuration_prebuilds& operator=(const configuration_prebuilds&) = delete;

  // How many builds may run at once here: half the cores, 1 to 8 (nvcc is heavy; a CUTLASS build takes
  // gigabytes).
  static std::size_t default_parallel();
  std::size_t parallel() const { return m_parallel; }

  // Starts the build of `c` unless it was started, and unless `parallel` builds are running
  // (false then).
  bool start(const kernel::tune_configuration& c);
  // Returns when `c`'s build, if one was started, has ended.
  void wait(const kernel::tune_configuration& c);

 private:
  std::size_t running();

  compile::compile_request m_base;
  std::size_t m_parallel;
  std::map<std::string, std::future<void>> m_builds;  // by configuration: the same build at every shape
};

}  // namespace kopt::tune
