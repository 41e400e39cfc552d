#pragma once
// GPU architecture targets: the default per DESIGN.md (sm_90a on compute capability 9.0, so
// that wgmma and TMA are available; sm_90a without a GPU) and how a target maps to nvcc.

#include <optional>
#include <string>
#include <vector>

namespace kopt::compile {

struct compute_capability {
  int major = 0;
  int minor = 0;
};

struct arch_target {
  std::string name;  // canonical "sm_90a", "sm_80", "sm_100a"
  int major = 0;
  int minor = 0;
  std::string suffix;  // "", "a" or "f"
};

// Accepts "sm_90a", "90a", "compute_90", "SM_80"; throws kopt::error otherwise.
arch_target parse_arch(const std::string& text);

// The target for a device (none: no GPU visible).
arch_target default_arch(std::optional<compute_capability> device);

// nvcc flags for the target: "-gencode=arch=compute_90a,code=sm_90a".
std::vector<std::string> gencode_flags(const arch_target& target);

// Whether code built for `target` runs on `device`: same major and minor (sm_90a and sm_90
// both match 9.0), or an older minor of the same major for plain targets.
bool arch_runs_on(const arch_target& target, compute_capability device);

}  // namespace kopt::compile
