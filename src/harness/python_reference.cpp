#include "harness/python_reference.h"

#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "core/error.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "harness/poison.h"
#include "harness/prestarted_runner.h"

namespace kopt::harness {
namespace fs = std::filesystem;
namespace {

// The runner's exit statuses (python/kopt_runner.py): 2 means the reference module or its
// call is at fault, and stderr's first line says how.
constexpr int runner_reference_problem = 2;

void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw error(fmt::format("cannot write {} for the Python reference", path.string()));
}

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (!in || ec) throw error(fmt::format("the Python reference runner left no {}", path.filename().string()));
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw error(fmt::format("cannot read {} from the Python reference runner", path.filename().string()));
  return bytes;
}

std::string seed_dir_name(std::uint64_t seed) { return fmt::format("seed_{}", seed); }

fs::path seed_folder(const python_reference_request& request, std::uint64_t seed) {
  return request.output_folders != nullptr ? request.output_folders->at(seed) : request.work_dir / seed_dir_name(seed);
}

// Every seed's inputs written into its folder; the request's list of them. None when the
// runner makes the inputs itself (request.job).
std::vector<seed_folder_entry> write_seed_files(const python_reference_request& request) {
  std::vector<seed_folder_entry> seeds;
  if (request.job != nullptr) return seeds;
  const kernel::kernel_plan& plan = *request.plan;
  for (const auto& [seed, contents] : *request.seeds) {
    const fs::path dir = seed_folder(request, seed);
    fs::create_directories(dir);
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      const auto& b = plan.buffers[i];
      if (b.role != kernel::buffer_role::out) write_bytes(dir / (b.param.name + ".bin"), contents.at(i));
    }
    seeds.push_back(seed_folder_entry{seed, dir.string()});
  }
  return seeds;
}

// The runner's outputs of every seed, read back from its files.
std::map<std::uint64_t, buffer_contents> read_outputs(const python_reference_request& request) {
  const kernel::kernel_plan& plan = *request.plan;
  std::map<std::uint64_t, buffer_contents> outputs;
  for (const auto& [seed, contents] : *request.seeds) {
    buffer_contents seed_outputs(plan.buffers.size());
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      const auto& b = plan.buffers[i];
      if (b.role == kernel::buffer_role::in) continue;
      seed_outputs[i] = read_bytes(seed_folder(request, seed) / (b.param.name + ".out.bin"));
      if (static_cast<std::int64_t>(seed_outputs[i].size()) != b.bytes) {
        throw error(fmt::format("the Python reference runner returned {} bytes of {}, expected {}",
                                seed_outputs[i].size(), b.param.name, b.bytes));
      }
    }
    outputs[seed] = std::move(seed_outputs);
  }
  return outputs;
}

std::vector<runner_parameter> runner_parameters(const kernel::kernel_plan& plan, const triton_problem* triton) {
  std::vector<runner_parameter> parameters;
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    runner_parameter parameter{.name = b.param.name,
                               .kind = "buffer",
                               .index = b.param.index,
                               .dtype = std::string(b.param.element.name),
                               .elements = b.elements,
                               .role = std::string(kernel::to_string(b.role))};
    // An output starts as poison, which the runner makes itself: no file of it crosses.
    if (b.role == kernel::buffer_role::out) parameter.poison = poison_hex(b.param.element);
    if (triton != nullptr) {
      parameter.shape = triton->tensors.at(i).shape;
      parameter.strides = triton->tensors.at(i).strides;
    }
    parameters.push_back(std::move(parameter));
  }
  if (triton != nullptr) {
    for (const auto& [name, value] : triton->scalars.items()) {
      parameters.push_back(runner_parameter{.name = name, .kind = "scalar", .value = value});
    }
  }
  for (const auto& s : plan.scalars) {
    json value;
    std::visit([&](auto v) { value = v; }, s.value);
    parameters.push_back(runner_parameter{.name = s.param.name, .kind = "scalar", .index = s.param.index, .value = value});
  }
  return parameters;
}

// The runner's stderr: first line is the problem, the rest (a traceback) its detail.
[[noreturn]] void throw_runner_problem(const process_result& run, const fs::path& module) {
  const std::string text(trim(run.stderr_text));
  const std::size_t line_end = text.find('\n');
  std::string headline = text.substr(0, line_end);
  if (headline.empty()) headline = fmt::format("the Python reference {} failed ({})", module.string(), run.describe_end());
  throw error(headline, line_end == std::string::npos ? "" : text.substr(line_end + 1));
}

}  // namespace

namespace {

// The check's output (the runner prints what it found, if anything).
std::string check_python_module(const std::string& python, const fs::path& runner, const char* check_command,
                                const fs::path& module, const fs::path& reference = {}) {
  std::vector<std::string> argv = {python, runner.string(), check_command, module.string()};
  if (!reference.empty()) argv.push_back(reference.string());
  const process_result run = run_process({.argv = argv, .timeout = std::chrono::seconds(60)});
  if (!run.started) {
    throw error(fmt::format("cannot run Python ({}) for {}: install python3 or set KOPT_PYTHON", run.start_error,
                            module.string()));
  }
  if (!run.succeeded()) throw_runner_problem(run, module);
  return std::string(trim(run.stdout_text));
}

}  // namespace

void check_python_reference(const std::string& python, const fs::path& runner, const fs::path& module) {
  check_python_module(python, runner, "check-reference", module);
}

std::string check_triton_module(const std::string& python, const fs::path& runner, const fs::path& module,
                                const fs::path& reference) {
  return check_python_module(python, runner, "check-triton", module, reference);
}

python_reference_result run_python_reference(const python_reference_request& request) {
  const kernel::kernel_plan& plan = *request.plan;
  const auto writing_started = std::chrono::steady_clock::now();
  fs::create_directories(request.work_dir);
  reference_request document;
  document.module = request.module.string();
  document.device = request.device;
  document.harness_abi_library = request.harness_abi_library.string();
  document.parameters = runner_parameters(plan, request.triton);
  document.seeds = write_seed_files(request);
  if (!request.tolerances_file.empty()) document.tolerances_file = request.tolerances_file.string();
  document.timing = request.timing;
  if (request.job != nullptr) document.job = *request.job;
  const fs::path request_file = request.work_dir / "request.json";
  const fs::path result_file = request.work_dir / "result.json";
  write_json_file(request_file, to_document(document));

  const auto started = std::chrono::steady_clock::now();
  const double writing_s = std::chrono::duration<double>(started - writing_started).count();
  const std::vector<std::string> command = {"reference", request_file.string(), result_file.string()};
  // A runner started ahead (kopt harness --gated) has Python and torch loaded already.
  std::unique_ptr<gated_process> prestarted = take_prestarted_runner(request.python, request.runner);
  const bool was_prestarted = prestarted != nullptr;
  process_result run;
  if (prestarted) {
    run = prestarted->open(json(command).dump(), request.timeout);
  } else {
    std::vector<std::string> argv = {request.python, request.runner.string()};
    argv.insert(argv.end(), command.begin(), command.end());
    run = run_process({.argv = argv, .timeout = request.timeout});
  }
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!run.started) {
    throw error(fmt::format("cannot run Python ({}) for the reference: install python3 or set KOPT_PYTHON",
                            run.start_error));
  }
  if (run.timed_out) {
    throw error(fmt::format("the Python reference {} did not finish within {} s", request.module.string(),
                            request.timeout.count()));
  }
  if (!run.succeeded()) throw_runner_problem(run, request.module);

  python_reference_result result;
  result.answer = read_document_file<reference_runner_result>(result_file, "kopt's Python runner wrote a result "
                                                                            "this kopt cannot read: reinstall kopt");
  // With output folders the outputs stay where the caller reads them.
  if (request.output_folders == nullptr && request.job == nullptr) result.outputs = read_outputs(request);
  runner_overhead& overhead = result.answer.overhead;
  overhead.runner_wall_s = wall_s;         // from the gate when prestarted
  overhead.writing_inputs_s = writing_s;   // the inputs' files and the request, before the runner reads them
  overhead.runner_prestarted = was_prestarted;
  return result;
}

}  // namespace kopt::harness
