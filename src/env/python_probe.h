#pragma once
// Python, PyTorch and Triton as the interpreter kopt will use sees them.

#include <optional>
#include <string>

namespace kopt::env {

struct python_probe_result {
  bool python_found = false;
  std::string python_command;      // what was run ("python3" or $KOPT_PYTHON)
  std::string python_version;      // "3.12.3"
  std::string python_executable;
  std::string problem;             // why Python could not be probed
  std::optional<std::string> torch_version;
  std::string torch_cuda_version;  // torch.version.cuda, "" for a CPU build
  bool torch_cuda_available = false;
  std::string torch_problem;       // import error text
  std::optional<std::string> triton_version;
  std::string triton_problem;
};

python_probe_result probe_python();

// Pure: fills the result from the probe script's JSON output.
python_probe_result parse_python_probe(const std::string& probe_output);

}  // namespace kopt::env
