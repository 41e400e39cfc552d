// A Python reference's keys, made in the runner's process: each key's inputs generated again
// on the device into kopt's buffers (which the runner's tensors are views of), the reference
// called back, and its outputs written for the verdict by the same code that writes a native
// reference's. Before this, every key's inputs went device -> file -> runner -> device, about
// a second for a hundred keys of 16 MiB.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "abi_buffers.h"
#include "abi_text.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/json_limits.h"
#include "harness/bench_job.h"
#include "harness/buffer_memory.h"
#include "harness/evidence_files.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/job_problem.h"
#include "harness/seed_inputs.h"
#include "kopt_harness_abi.h"

namespace {
namespace harness = kopt::harness;
using kopt::json;

constexpr int stopped_by_the_runner = 2;

// The runner's answer for one key: true to go on.
bool call_back(kopt_key_callback each, void* context, const json& key) {
  std::vector<char> unused(16, '\0');  // the runner keeps its reason (a traceback) itself
  return each(context, kopt::json_text(key, -1).c_str(), unused.data(), unused.size()) == 0;
}

int run_keys(const harness::bench_job& job, kopt_bind_callback bind, kopt_key_callback each, void* context) {
  const harness::job_problem problem(job);
  if (problem.triton() != nullptr || job.host_only) {
    throw kopt::error("this reference job's inputs are not made by kopt's generator on a GPU");
  }
  const kopt::kernel::kernel_plan& plan = problem.plan();
  const harness::gpu_context gpu = harness::open_gpu_context();
  const auto memory = harness::make_device_memory(*gpu.api);
  harness::input_generator generator(*gpu.api, plan.buffers);
  const auto seeds = harness::generated_seed_inputs(generator, plan);
  harness::device_buffers buffers(*memory, plan.buffers);
  if (bind(context, kopt::json_text(kopt::harness_abi::buffers_json(plan, buffers), -1).c_str()) != 0) {
    throw kopt::error("the Python runner could not make its tensors over kopt's buffers");
  }
  for (const harness::evidence_key& key : harness::validation_of(job).evidence) {
    harness::prepare_key_inputs(*seeds, &generator, plan, buffers, job.seed, key);
    memory->synchronize("making the reference's inputs");
    if (!call_back(each, context, kopt::to_document(key))) {
      return stopped_by_the_runner;
    }
    harness::write_evidence(harness::evidence_dir_of(job), key, plan, buffers);
  }
  if (harness::is_timed(job)) {
    harness::prepare_key_inputs(*seeds, &generator, plan, buffers, job.seed,
                                harness::evidence_key{harness::evidence_kind::seed, job.seed, "timed"});
    memory->synchronize("making the inputs the reference is timed on");
    if (!call_back(each, context, json{{"kind", "timing"}})) return stopped_by_the_runner;
  }
  return 0;
}

}  // namespace

extern "C" int kopt_run_reference_keys(const char* job_json, kopt_bind_callback bind, kopt_key_callback each,
                                       void* context, char** error) {
  try {
    return run_keys(kopt::read_document<harness::bench_job>(kopt::parse_json_checked(job_json), "the reference's job", "a kopt bug: report it"), bind, each, context);
  } catch (const kopt::error& e) {
    *error = kopt::harness_abi::copy_out(e.headline());
  } catch (const std::exception& e) {
    *error = kopt::harness_abi::copy_out(e.what());
  }
  return 1;
}
