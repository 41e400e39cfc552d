#include "env/python_probe.h"

#include <fmt/format.h>

#include "core/json_io.h"
#include "core/python.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace kopt::env {
namespace {

// Imports torch and triton and reports versions; any failure becomes text, never a crash.
constexpr const char* probe_script = R"PY(
import json, platform, sys
report = {"python": platform.python_version(), "executable": sys.executable}
try:
    import torch
    report["torch"] = torch.__version__
    report["torch_cuda"] = torch.version.cuda or ""
    report["torch_cuda_available"] = bool(torch.cuda.is_available())
except Exception as e:
    report["torch_error"] = f"{type(e).__name__}: {e}"
try:
    import triton
    report["triton"] = triton.__version__
except Exception as e:
    report["triton_error"] = f"{type(e).__name__}: {e}"
print("KOPT_PROBE " + json.dumps(report))
)PY";

}  // namespace

python_probe_result parse_python_probe(const std::string& probe_output) {
  python_probe_result result;
  const size_t marker = probe_output.rfind("KOPT_PROBE ");
  if (marker == std::string::npos) {
    result.problem = "the probe printed no report";
    return result;
  }
  json report;
  try {
    report = json::parse(split_lines(probe_output.substr(marker + 11)).front());
  } catch (const std::exception& e) {
    result.problem = fmt::format("unreadable probe report: {}", e.what());
    return result;
  }
  result.python_found = true;
  result.python_version = report.value("python", "");
  result.python_executable = report.value("executable", "");
  if (report.contains("torch")) {
    result.torch_version = report["torch"].get<std::string>();
    result.torch_cuda_version = report.value("torch_cuda", "");
    result.torch_cuda_available = report.value("torch_cuda_available", false);
  }
  result.torch_problem = report.value("torch_error", "");
  if (report.contains("triton")) result.triton_version = report["triton"].get<std::string>();
  result.triton_problem = report.value("triton_error", "");
  return result;
}

python_probe_result probe_python() {
  const std::string command = python_command();
  const process_result run =
      run_process({.argv = {command, "-c", probe_script}, .timeout = std::chrono::seconds(120)});
  python_probe_result result;
  if (!run.started) {
    result.problem = fmt::format("{} not found", command);
  } else if (!run.succeeded()) {
    result.problem = fmt::format("{} {}: {}", command, run.describe_end(), trim(run.stderr_text));
  } else {
    result = parse_python_probe(run.stdout_text);
  }
  result.python_command = command;
  return result;
}

}  // namespace kopt::env
