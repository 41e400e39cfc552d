#include "loop/run_settings.h"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "loop/run_manifest.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// One tolerance of frozen_tolerances' text; nothing for "default" or "default by output type".
std::optional<double> tolerance_of(const std::string& text, const std::string& name) {
  const std::string key = name + "=";
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::string value = text.substr(at + key.size(), text.find(' ', at) - at - key.size());
  if (value == "default") return std::nullopt;
  try {
    return std::stod(value);
  } catch (const std::exception&) {
    throw error(fmt::format("the run's frozen tolerances \"{}\" cannot be read: the manifest is kopt's; start a new run",
                            text));
  }
}

}  // namespace

std::string frozen_tolerances(const loop_settings& s) {
  if (!s.atol && !s.rtol) return "default by output type";
  return fmt::format("atol={} rtol={}", s.atol ? fmt::format("{}", *s.atol) : "default",
                     s.rtol ? fmt::format("{}", *s.rtol) : "default");
}

nlohmann::json frozen_settings(const loop_settings& s) {
  return {{"warmup", s.job.sampling.warmup},
          {"repeat", s.job.sampling.repeat},
          {"min_seconds", s.job.sampling.min_seconds},
          {"max_seconds", s.job.sampling.max_seconds},
          {"seed", s.job.seed},
          {"hot", s.job.sampling.hot},
          {"gpu", s.target.gpu},
          {"kernel_name_regex", s.capture.kernel_name_regex},
          {"defines", s.target.defines},
          {"ptr_size", s.target.ptr_size ? nlohmann::json(*s.target.ptr_size) : nlohmann::json(nullptr)},
          {"nvcc_bin", s.target.nvcc_bin}};
}

std::vector<std::string> frozen_defines(const run_manifest& m) {
  return m.settings.value("defines", std::vector<std::string>{});
}

loop_settings settings_of_run(const fs::path& run_dir) {
  if (!fs::exists(run_dir / run_manifest_name)) {
    throw error(fmt::format("--run-dir {} holds no run (no {}): give the folder kopt loop printed as \"run folder\"",
                            run_dir.string(), run_manifest_name));
  }
  const run_manifest m = read_run_manifest(run_dir);
  loop_settings s;
  s.run_dir = run_dir;
  s.target.kernel = m.kernel;
  s.target.ref = m.reference;
  s.target.dims = kernel::parse_dimension_flags(join(m.frozen.dims, " "));
  s.target.gpu = m.settings.value("gpu", 0);
  // The build as the run's versions had it: --finish rebuilds v0 and the best from their snapshots.
  s.target.backend = m.backend;
  s.target.arch = m.arch;
  s.target.defines = frozen_defines(m);
  if (const auto size = m.settings.find("ptr_size"); size != m.settings.end() && size->is_number_integer()) {
    s.target.ptr_size = size->get<std::int64_t>();
  }
  s.target.nvcc_bin = m.settings.value("nvcc_bin", std::string());
  s.target.command_name = "kopt loop";
  s.target.gpu_purpose = "measure on";
  s.atol = tolerance_of(m.frozen.tolerances, "atol");
  s.rtol = tolerance_of(m.frozen.tolerances, "rtol");
  s.job.sampling.warmup = m.settings.value("warmup", s.job.sampling.warmup);
  s.job.sampling.repeat = m.settings.value("repeat", s.job.sampling.repeat);
  s.job.sampling.min_seconds = m.settings.value("min_seconds", s.job.sampling.min_seconds);
  s.job.sampling.max_seconds = m.settings.value("max_seconds", s.job.sampling.max_seconds);
  s.job.sampling.hot = m.settings.value("hot", s.job.sampling.hot);
  s.job.seed = m.settings.value("seed", s.job.seed);
  s.capture.kernel_name_regex = m.settings.value("kernel_name_regex", std::string());
  s.max_iterations = m.max_iterations;
  s.op = m.op;
  s.op_family = m.op_family;
  s.memory_db = m.memory_db;
  for (const std::string& shape : m.frozen.check_dims) {
    s.check_shapes.push_back(kernel::parse_check_dims(shape, s.target.dims));
  }
  return s;
}

}  // namespace kopt::loop
