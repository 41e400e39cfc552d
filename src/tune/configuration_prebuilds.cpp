#include "tune/configuration_prebuilds.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace kopt::tune {

configuration_prebuilds::configuration_prebuilds(compile::compile_request base, std::size_t parallel)
    : m_base(std::move(base)), m_parallel(parallel) {
  m_base.announce = false;  // from a thread of its own, a line on the terminal would cut into the progress
}

configuration_prebuilds::~configuration_prebuilds() {
  for (auto& [configuration, build] : m_builds) {
    if (build.valid()) build.wait();
  }
}

std::size_t configuration_prebuilds::default_parallel() {
  return std::clamp<std::size_t>(std::thread::hardware_concurrency() / 2, 1, 8);
}

std::size_t configuration_prebuilds::running() {
  std::size_t n = 0;
  for (auto& [configuration, build] : m_builds) {
    if (build.valid() && build.wait_for(std::chrono::seconds(0)) != std::future_status::ready) ++n;
  }
  return n;
}

bool configuration_prebuilds::start(const kernel::tune_configuration& c) {
  if (m_builds.count(c.text()) > 0) return true;
  if (running() >= m_parallel) return false;
  compile::compile_request request = m_base;
  for (const std::string& d : c.defines()) request.defines.push_back(d);
  m_builds[c.text()] = std::async(std::launch::async, [request] {
    try {
      compile::compile_kernel(request);
    } catch (...) {
      // The bench builds it again and says what is wrong (nvcc missing, say).
    }
  });
  return true;
}

void configuration_prebuilds::wait(const kernel::tune_configuration& c) {
  const auto found = m_builds.find(c.text());
  if (found != m_builds.end() && found->second.valid()) found->second.wait();
}

}  // namespace kopt::tune
