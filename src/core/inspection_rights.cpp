#include "core/inspection_rights.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt {
namespace {

struct named_capability {
  int number;
  const char* name;
};

constexpr std::array<named_capability, 3> inspection_capabilities = {{
    {CAP_SYS_PTRACE, "CAP_SYS_PTRACE"},
    {CAP_SYS_ADMIN, "CAP_SYS_ADMIN"},
    {CAP_PERFMON, "CAP_PERFMON"},
}};

using capability_sets = std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3>;

bool read_capabilities(capability_sets& sets) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  return ::syscall(SYS_capget, &header, sets.data()) == 0;
}

bool holds(const capability_sets& sets, int number) {
  return (sets[number / 32].permitted & (1U << (number % 32))) != 0;
}

void clear(capability_sets& sets, int number) {
  const std::uint32_t bit = 1U << (number % 32);
  sets[number / 32].effective &= ~bit;
  sets[number / 32].permitted &= ~bit;
  sets[number / 32].inheritable &= ~bit;
}

}  // namespace

std::string give_up_inspection_rights(rights_kept kept) {
  capability_sets sets{};
  if (!read_capabilities(sets)) return fmt::format("; capabilities not read ({})", std::strerror(errno));
  std::vector<std::string> given_up;
  for (const named_capability& capability : inspection_capabilities) {
    const bool kept_for_profiling = kept == rights_kept::profiling_for_admins && capability.number != CAP_SYS_PTRACE;
    if (kept_for_profiling || !holds(sets, capability.number)) continue;
    // Out of the bounding set first (this needs CAP_SETPCAP, still held): a program this
    // process starts would otherwise get every right back, as root does at each exec.
    ::prctl(PR_CAPBSET_DROP, capability.number, 0, 0, 0);
    clear(sets, capability.number);
    given_up.emplace_back(capability.name);
  }
  if (given_up.empty()) return "";
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  if (::syscall(SYS_capset, &header, sets.data()) != 0) {
    return fmt::format("; could not give up {} ({})", fmt::join(given_up, ", "), std::strerror(errno));
  }
  return fmt::format("; without {}", fmt::join(given_up, ", "));
}

bool profiling_restricted_to_admins() {
  std::ifstream params("/proc/driver/nvidia/params");
  std::string line;
  while (std::getline(params, line)) {
    if (line.rfind("RmProfilingAdminOnly:", 0) == 0) return line.find('1') != std::string::npos;
  }
  return false;
}

}  // namespace kopt
