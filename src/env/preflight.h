#pragma once
// The environment check: is this machine ready to compile, validate, time and profile
// kernels of a backend, and if not, what exactly is missing and how to fix it.

#include <optional>
#include <string>
#include <vector>

#include <boost/describe/enum.hpp>

#include "core/json_io.h"
#include "env/gpu_probe.h"
#include "kernel/backend.h"

namespace kopt::env {

struct preflight_options {
  kernel::backend backend = kernel::backend::cuda;
  int gpu = 0;               // CUDA device ordinal
  std::string arch;          // --arch; empty: the device's default
  std::string nvcc_bin;
  std::string ncu_bin;
};

enum class check_state { ok, warning, missing, skipped };
BOOST_DESCRIBE_ENUM(check_state, ok, warning, missing, skipped)

struct check_item {
  std::string name;
  check_state state = check_state::skipped;
  bool required = false;     // a missing required item makes the machine not ready
  std::string value;         // what was found
  std::string fix;           // how to fix a problem
};

struct preflight_report {
  std::string generated_at;  // UTC, ISO 8601
  preflight_options options;
  std::vector<check_item> items;
  gpu_probe_result gpus;
  json facts;                // versions and paths, for the JSON file

  bool ready() const;
  std::vector<const check_item*> problems() const;  // required and missing
};

preflight_report run_preflight(const preflight_options& options);

std::string_view to_string(check_state state);

}  // namespace kopt::env
