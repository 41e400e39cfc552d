// The Triton kernel's measuring process: the one bench protocol (harness/kernel_protocol.h)
// with the module's run_kernel() as the version under test, called back into the Python
// runner. Everything that judges (buffers, guards, poison, inputs, timing, checks, the result
// file) is here, in C++, out of reach of Python-level patching by the module under test.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "abi_buffers.h"
#include "abi_text.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/json_limits.h"
#include "core/phase_clock.h"
#include "core/result_seal.h"
#include "harness/bench_job.h"
#include "harness/bench_version.h"
#include "harness/block_channel.h"
#include "harness/buffer_memory.h"
#include "harness/child_report.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/integrity_flags.h"
#include "harness/job_problem.h"
#include "harness/kernel_failure.h"
#include "harness/kernel_protocol.h"
#include "harness/kernel_sources.h"
#include "harness/loaded_libraries.h"
#include "harness/runner_documents.h"
#include "harness/seed_inputs.h"
#include "harness/timing_blocks.h"
#include "kopt_harness_abi.h"

namespace {
using kopt::json;
namespace harness = kopt::harness;

// Taken when the runner loads this library, before the kernel module is imported: what was
// loaded then (the library check's baseline), and the key kopt sealed this run with.
const std::vector<std::string> library_baseline = harness::loaded_compute_libraries();
const std::optional<std::string> result_key = kopt::take_result_key();

constexpr std::size_t failure_capacity = 256 * 1024;  // [bytes] for a reason and a traceback
constexpr std::size_t facts_capacity = 4 * 1024 * 1024;  // [bytes]

std::string text_of(std::vector<char>& buffer) {
  buffer.back() = '\0';
  return std::string(buffer.data());
}

// run_kernel() through the runner's callback, on the buffers the runner's tensors were last bound
// to: select() binds them to this version's buffers (`buffers_json`, as the ABI describes them).
class callback_version final : public harness::version_under_test {
 public:
  callback_version(kopt_text_callback call, void* context, kopt_bind_callback bind, std::string buffers_json)
      : m_call(call), m_context(context), m_bind(bind), m_buffers_json(std::move(buffers_json)) {}

  void invoke() override {
    std::vector<char> failure(failure_capacity, '\0');
    if (m_call(m_context, failure.data(), failure.size()) == 0) return;
    harness::call_failure reported;
    try {
      reported = kopt::from_document<harness::call_failure>(kopt::parse_json_checked(text_of(failure)));
    } catch (const kopt::document_error& e) {
      throw harness::kernel_failure{harness::run_status::failed,
                                    "run_kernel() failed, and the runner's report of why is unreadable: " + e.headline()};
    }
    throw harness::kernel_failure{reported.status, reported.reason, reported.detail};
  }

  void select() override {
    if (m_bind(m_context, m_buffers_json.c_str()) != 0) {
      throw kopt::error("the Python runner could not make its tensors over kopt's buffers");
    }
  }

 private:
  kopt_text_callback m_call;
  void* m_context;
  kopt_bind_callback m_bind;
  std::string m_buffers_json;
};

// The runner's facts where the report has them; a report the reader refuses fails the run: the
// runner shares its process with the module under test.
void add_runner_facts(harness::child_report& result, const std::string& text) {
  harness::triton_runner_facts facts;
  try {
    facts = kopt::from_document<harness::triton_runner_facts>(kopt::parse_json_checked(text));
  } catch (const kopt::document_error& e) {
    if (result.ok()) {
      result.status = harness::run_status::failed;
      result.reason = "the runner's account of the run is unreadable (" + e.headline() + "): its process was tampered with";
    }
    return;
  }
  result.triton = facts.triton;
  result.python_runner = facts.python_runner;
  result.signature = facts.signature;
  result.dims = facts.dims;
  result.sandbox = facts.sandbox;
  if (facts.triton.is_object() && facts.triton.contains("launched_kernels") &&
      facts.triton["launched_kernels"].is_array()) {
    std::vector<std::string> launched;
    for (const json& name : facts.triton["launched_kernels"]) {
      if (name.is_string()) launched.push_back(name.get<std::string>());
    }
    harness::add_library_kernels_flag(result, launched);
    harness::add_kernel_sources(result, {launched.begin(), launched.end()}, "run_kernel()");
  }
}

// run_kernel() over fresh buffers of `plan`: the runner's tensors are bound to them at select().
harness::bench_version bound_version(harness::buffer_memory& memory, const kopt::kernel::kernel_plan& plan,
                                     kopt_bind_callback bind, kopt_text_callback call, void* context) {
  harness::bench_version version;
  version.buffers = std::make_unique<harness::device_buffers>(memory, plan.buffers);
  version.call = std::make_unique<callback_version>(
      call, context, bind, kopt::json_text(kopt::harness_abi::buffers_json(plan, *version.buffers), -1));
  return version;
}

harness::child_report run_job(const harness::bench_job& job, const char* kernel_setup_json, kopt_bind_callback bind,
             kopt_text_callback call, kopt_text_callback facts, void* context) {
  kopt::phase_clock clock;
  const harness::job_problem problem(job);
  if (problem.triton() == nullptr) throw kopt::error("this measuring job carries no Triton problem");
  const kopt::kernel::kernel_plan& plan = problem.plan();
  std::optional<harness::gpu_context> gpu;
  std::unique_ptr<harness::buffer_memory> memory;
  if (job.host_only) {
    memory = harness::make_host_memory();
  } else {
    gpu = harness::open_gpu_context();
    memory = harness::make_device_memory(*gpu->api);
  }
  harness::child_report result = harness::report_of(harness::run_status::ok);
  result.problem_source = problem.source();
  harness::bench_version version = bound_version(*memory, plan, bind, call, context);
  version.call->select();
  std::string mismatch;
  if (kernel_setup_json != nullptr) {
    mismatch = harness::declared_mismatch(*problem.triton(), kopt::parse_json_checked(kernel_setup_json));
  }
  if (!mismatch.empty()) {
    result.status = harness::run_status::failed;
    result.reason = fmt::format("problem mismatch: {}; the problem belongs to the reference (drop the kernel's "
                                   "setup() or make it return the same)",
                                   mismatch);
  } else {
    std::unique_ptr<harness::input_generator> generator;
    if (gpu) generator = std::make_unique<harness::input_generator>(*gpu->api, plan.buffers);
    const auto seeds = harness::problem_seed_inputs(*problem.triton(), false);
    const harness::protocol_setting setting{job, plan, version, *seeds, generator.get(), gpu ? &*gpu : nullptr,
                                            library_baseline};
    clock.done("gpu_context_and_buffers");
    if (job.kind == harness::job_kind::blocks) {
      // A comparison in turns: the blocks are asked for, and answered, on standard input (a
      // socket the parent holds), sealed with this process's key. As for a CUDA kernel, the
      // version takes turns over several sets of buffers, the runner's tensors bound to each in
      // turn (timing_blocks.h).
      if (!gpu) throw kopt::error("a comparison in turns needs the GPU: no GPU is in use here");
      harness::block_channel channel(STDIN_FILENO, result_key);
      std::vector<harness::bench_version> more;
      for (int i = 1; i < harness::placements_for(plan); ++i) {
        more.push_back(bound_version(*memory, plan, bind, call, context));
      }
      harness::turn_setting turns{job, plan, {&version}, *seeds, *generator, *gpu, library_baseline};
      for (harness::bench_version& v : more) turns.placements.push_back(&v);
      harness::run_timing_blocks(turns, result, channel);
    } else if (job.kind == harness::job_kind::profile) {
      harness::run_profile_window(setting, result);
    } else {
      harness::run_protocol(setting, result, clock);
    }
  }
  std::vector<char> added(facts_capacity, '\0');
  if (facts(context, added.data(), added.size()) == 0) add_runner_facts(result, text_of(added));
  if (job.kind == harness::job_kind::kernel) result.phases_s = clock.phases();
  return result;
}

}  // namespace

extern "C" int kopt_run_kernel_job(const char* job_json, const char* kernel_setup_json, const char* result_path,
                                   kopt_bind_callback bind, kopt_text_callback call, kopt_text_callback facts,
                                   void* context, char** error) {
  try {
    const harness::bench_job job = kopt::read_document<harness::bench_job>(kopt::parse_json_checked(job_json), "the kernel's job", "a kopt bug: report it");
    const harness::child_report result = run_job(job, kernel_setup_json, bind, call, facts, context);
    const std::string text = kopt::json_text(kopt::to_document(result));
    kopt::write_file_atomic(result_path, result_key ? kopt::sealed(*result_key, text) : text);
  } catch (const kopt::error& e) {
    *error = kopt::harness_abi::copy_out(e.headline());
    return 1;
  } catch (const std::exception& e) {
    *error = kopt::harness_abi::copy_out(e.what());
    return 1;
  }
  // Nothing of the module's may run once the result is written (no atexit handler, no thread).
  std::fflush(nullptr);
  ::_exit(0);
}
