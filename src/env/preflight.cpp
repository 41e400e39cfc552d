#include "env/preflight.h"

#include <fmt/format.h>

#include "compile/arch.h"
#include "compile/cutlass_locator.h"
#include "tools/toolchain.h"
#include "core/enum_names.h"
#include "core/error.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "env/ncu_probe.h"
#include "env/python_probe.h"

namespace kopt::env {
namespace {

// "not found (looked in PATH, ...)", or why a program found there was refused.
std::string not_found_text(const tools::tool_search& search) {
  if (!search.refused.empty()) return fmt::format("refused: {}", join(search.refused, "; "));
  return fmt::format("not found (looked in {})", join(search.looked_in, ", "));
}

check_item found(std::string name, bool required, std::string value) {
  return {std::move(name), check_state::ok, required, std::move(value), ""};
}

check_item absent(std::string name, bool required, std::string value, std::string fix) {
  return {std::move(name), required ? check_state::missing : check_state::warning, required,
          std::move(value), std::move(fix)};
}

check_item skipped(std::string name, std::string why) {
  return {std::move(name), check_state::skipped, false, std::move(why), ""};
}

// "13.0.88" -> 13000, comparable with cuDriverGetVersion.
int cuda_version_number(const std::string& dotted) {
  int major = 0;
  int minor = 0;
  if (std::sscanf(dotted.c_str(), "%d.%d", &major, &minor) < 2) return 0;
  return major * 1000 + minor * 10;
}

void check_gpu(preflight_report& report, const gpu_device*& device) {
  const preflight_options& options = report.options;
  report.gpus = probe_gpus();
  const gpu_probe_result& gpus = report.gpus;
  device = gpus.device(options.gpu);
  if (!gpus.has_gpu()) {
    report.items.push_back(absent("GPU", true, gpus.driver_problem,
                                  "timing and profiling need an NVIDIA GPU; inspect and compile work without one"));
    return;
  }
  if (device == nullptr) {
    report.items.push_back(absent("GPU", true,
                                  fmt::format("--gpu {} is not visible ({} device(s) present)", options.gpu,
                                              gpus.devices.size()),
                                  fmt::format("pass --gpu between 0 and {}", gpus.devices.size() - 1)));
    return;
  }
  report.items.push_back(found(
      "GPU", true,
      fmt::format("{} (device {}, {}), compute capability {}.{}, {} SMs, {} memory, {} L2", device->name,
                  device->ordinal, device->uuid, device->capability.major, device->capability.minor,
                  device->multiprocessors, format_bytes(static_cast<double>(device->memory_bytes)),
                  format_bytes(static_cast<double>(device->l2_bytes)))));
  report.items.push_back(found("driver", true,
                               fmt::format("{} (supports CUDA {})",
                                           gpus.driver_version.empty() ? "version unknown (no NVML)" : gpus.driver_version,
                                           format_cuda_version(gpus.driver_cuda_version))));
  if (device->sm_clock_max_mhz > 0) {
    report.items.push_back(found("SM clock", false,
                                 fmt::format("{} MHz now, {} MHz max{}", device->sm_clock_now_mhz,
                                             device->sm_clock_max_mhz,
                                             device->clock_event_reasons.empty()
                                                 ? ""
                                                 : "; clock-event reasons: " + device->clock_event_reasons)));
  }
}

void check_arch(preflight_report& report, const gpu_device* device, compile::arch_target& arch) {
  std::optional<compile::compute_capability> capability;
  if (device != nullptr) capability = device->capability;
  arch = report.options.arch.empty() ? compile::default_arch(capability) : compile::parse_arch(report.options.arch);
  const std::string origin = report.options.arch.empty() ? "default" : "--arch";
  if (device == nullptr) {
    report.items.push_back(found("arch", false, fmt::format("{} ({}; no GPU to compare with)", arch.name, origin)));
  } else if (compile::arch_runs_on(arch, device->capability)) {
    report.items.push_back(found("arch", true, fmt::format("{} ({}) matches compute capability {}.{}", arch.name,
                                                            origin, device->capability.major,
                                                            device->capability.minor)));
  } else {
    report.items.push_back(absent(
        "arch", true,
        fmt::format("{} ({}) does not run on compute capability {}.{}", arch.name, origin,
                    device->capability.major, device->capability.minor),
        fmt::format("drop --arch or pass --arch={}", compile::default_arch(device->capability).name)));
  }
}

}  // namespace

bool preflight_report::ready() const { return problems().empty(); }

std::vector<const check_item*> preflight_report::problems() const {
  std::vector<const check_item*> list;
  for (const auto& item : items) {
    if (item.required && item.state == check_state::missing) list.push_back(&item);
  }
  return list;
}

std::string_view to_string(check_state state) { return enumerator_name(state); }

preflight_report run_preflight(const preflight_options& options) {
  preflight_report report;
  report.generated_at = utc_timestamp();
  report.options = options;
  const kernel::backend backend = options.backend;
  const bool needs_nvcc = backend != kernel::backend::triton;

  const gpu_device* device = nullptr;
  check_gpu(report, device);

  const tools::tool_search nvcc = tools::find_nvcc(options.nvcc_bin);
  if (nvcc.tool) {
    report.items.push_back(found("nvcc", needs_nvcc,
                                 fmt::format("{} at {}", nvcc.tool->version, nvcc.tool->path.string())));
    const int toolkit = cuda_version_number(nvcc.tool->version);
    if (device != nullptr && report.gpus.driver_cuda_version > 0 && toolkit > report.gpus.driver_cuda_version) {
      report.items.push_back(absent(
          "toolkit vs driver", true,
          fmt::format("nvcc {} is newer than the driver's CUDA {}", nvcc.tool->version,
                      format_cuda_version(report.gpus.driver_cuda_version)),
          "update the NVIDIA driver, or use a toolkit no newer than the driver (--nvcc-bin)"));
    }
  } else {
    report.items.push_back(absent("nvcc", needs_nvcc, not_found_text(nvcc),
                                  options.nvcc_bin.empty() ? "install the CUDA toolkit or pass --nvcc-bin"
                                                           : "pass the path of an existing nvcc to --nvcc-bin"));
  }

  compile::arch_target arch;
  check_arch(report, device, arch);

  const tools::tool_search ncu = tools::find_ncu(options.ncu_bin);
  if (ncu.tool) {
    report.items.push_back(found("ncu", true, fmt::format("{} at {}", ncu.tool->version, ncu.tool->path.string())));
  } else {
    report.items.push_back(absent("ncu", true, not_found_text(ncu),
                                  "install Nsight Compute (it comes with the CUDA toolkit) or pass --ncu-bin"));
  }
  if (device == nullptr) {
    report.items.push_back(skipped("ncu counters", "no GPU"));
  } else if (!ncu.tool || !nvcc.tool) {
    report.items.push_back(skipped("ncu counters", "needs ncu and nvcc"));
  } else {
    const ncu_probe_result probe = probe_ncu_counters(*ncu.tool, *nvcc.tool, arch, device->uuid);
    report.items.push_back(probe.counters_readable ? found("ncu counters", true, probe.detail)
                                                   : absent("ncu counters", true, probe.detail, probe.fix));
  }

  const bool needs_triton = backend == kernel::backend::triton;
  const python_probe_result python = probe_python();
  if (python.python_found) {
    report.items.push_back(found("python", needs_triton,
                                 fmt::format("{} at {}", python.python_version, python.python_executable)));
  } else {
    report.items.push_back(absent("python", needs_triton, python.problem,
                                  "install Python 3 or set KOPT_PYTHON to an interpreter (needed for .py references and Triton)"));
  }
  if (python.torch_version) {
    const std::string cuda = python.torch_cuda_version.empty() ? "CPU-only build" : "CUDA " + python.torch_cuda_version;
    const bool usable = python.torch_cuda_available || device == nullptr;
    check_item item = found("torch", needs_triton,
                            fmt::format("{} ({}, {})", *python.torch_version, cuda,
                                        python.torch_cuda_available ? "GPU available" : "no GPU visible to torch"));
    if (!usable) {
      item = absent("torch", needs_triton, item.value, "install a CUDA build of PyTorch that matches the driver");
    }
    report.items.push_back(item);
  } else if (python.python_found) {
    report.items.push_back(absent("torch", needs_triton, python.torch_problem,
                                  "pip install torch (needed for .py references and Triton kernels)"));
  }
  if (python.triton_version) {
    report.items.push_back(found("triton", needs_triton, *python.triton_version));
  } else if (needs_triton && python.python_found) {
    report.items.push_back(absent("triton", true, python.triton_problem, "pip install triton"));
  } else if (python.python_found) {
    report.items.push_back(skipped("triton", "not installed; only the triton backend needs it"));
  }

  const bool needs_cutlass = backend == kernel::backend::cutlass;
  const compile::cutlass_search cutlass = compile::find_cutlass();
  if (cutlass.headers) {
    report.items.push_back(found("CUTLASS", needs_cutlass,
                                 fmt::format("{} at {} (via {})", cutlass.headers->version,
                                             cutlass.headers->include_dir.string(), cutlass.headers->found_via)));
  } else {
    check_item item = absent("CUTLASS", needs_cutlass, fmt::format("not found (looked in {})", join(cutlass.looked_in, "; ")),
                             "set CUTLASS_PATH to a CUTLASS checkout or pip install nvidia-cutlass");
    if (!needs_cutlass) item.state = check_state::skipped;
    report.items.push_back(item);
  }

  report.facts = json{{"backend", kernel::to_string(backend)},
                      {"arch", arch.name},
                      {"nvcc", nvcc.tool ? json{{"path", nvcc.tool->path.string()}, {"version", nvcc.tool->version}} : json(nullptr)},
                      {"ncu", ncu.tool ? json{{"path", ncu.tool->path.string()}, {"version", ncu.tool->version}} : json(nullptr)},
                      {"python", python.python_found ? json{{"executable", python.python_executable},
                                                            {"version", python.python_version},
                                                            {"torch", python.torch_version.value_or("")},
                                                            {"torch_cuda", python.torch_cuda_version},
                                                            {"triton", python.triton_version.value_or("")}}
                                                     : json(nullptr)},
                      {"cutlass", cutlass.headers ? json{{"include_dir", cutlass.headers->include_dir.string()},
                                                         {"version", cutlass.headers->version}}
                                                  : json(nullptr)}};
  return report;
}

}  // namespace kopt::env
