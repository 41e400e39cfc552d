#include "harness/timing_blocks.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "harness/device_buffers.h"
#include "harness/gpu_sharing.h"
#include "harness/kernel_failure.h"
#include "harness/loaded_libraries.h"
#include "harness/sampling.h"
#include "harness/timed_call_checks.h"
#include "harness/timing_instruments.h"

namespace kopt::harness {
namespace {

// Enough sets that the luck of one process's draw of them stays well inside the comparison's 1 %
// margin (measure/placement_interval.h): eight left a 0.4 % spread of the ratio between two
// processes of the same Triton softmax on an H100, and the interval that accounts for it about
// 1 % wide; 32 halve both.
constexpr int most_placements = 32;
constexpr std::uint64_t placement_budget_bytes = std::uint64_t{2} << 30;

void serve(const turn_setting& setting, child_report& result, block_channel& channel) {
  const gpu_context& gpu = setting.gpu;
  const cuda::driver_api& api = *gpu.api;
  const bench_job& job = setting.job;
  timing_instruments instruments(gpu, job.sampling.hot);
  // Every set starts as a validation seed would leave it: guards full of the canary.
  for (bench_version* placement : setting.placements) setting.seeds.prepare(job.seed, *placement->buffers);
  buffer_memory& memory = setting.placements.front()->buffers->memory();
  memory.synchronize("making the first seed's inputs");
  device_buffers pristine(memory, setting.plan.buffers);  // each checked call's inputs, made again
  sampling_options block = judged_sampling(job, setting.plan);
  block.warmup = std::max(1, std::min(job.sampling.warmup, 3));
  std::uint64_t calls_before = 0;
  std::uint64_t last_call = 0;
  int blocks = 0;
  const bench_version* selected = setting.placements.front();  // the binding the version starts with
  while (const std::optional<int> calls = channel.next_request()) {
    bench_version& version =
        *setting.placements[static_cast<std::size_t>(blocks) % setting.placements.size()];
    if (&version != selected) {
      version.call->select();
      selected = &version;
    }
    device_buffers& buffers = *version.buffers;
    timed_call_checks checks(api, setting.plan, buffers, pristine, setting.generator, job.seed, {});
    sampling_hooks hooks;
    hooks.before_each = [&](std::uint64_t call) { checks.prepare_call(buffers, calls_before + call); };
    hooks.after_each = [&](std::uint64_t call, const call_sample&) {
      last_call = calls_before + call;
      checks.after_call(last_call);
    };
    block.exact_samples = static_cast<std::size_t>(*calls);
    measure::timing_document timing;
    try {
      timing = sample_gpu_time(
          api, *instruments.recorder, instruments.attribution, instruments.flusher.get(),
          [&] { version.call->invoke(); }, block, gpu.uuid, hooks);
    } catch (const error& e) {
      throw kernel_failure{run_status::crashed, fmt::format("the kernel failed while being timed: {}", e.headline())};
    }
    checks.finish(last_call);  // the block's last call, on the buffers it ran on
    result.block_call_checks.push_back(checks.summary());
    calls_before = last_call;
    ++blocks;
    block_reply reply;
    reply.timing = std::move(timing);
    reply.placement = static_cast<int>((blocks - 1) % static_cast<int>(setting.placements.size()));
    reply.warning = other_processes_warning(gpu.uuid, static_cast<std::size_t>(job.turn_peers.value_or(0)));
    channel.reply(std::move(reply));
  }
  result.timing_blocks = blocks;
  result.placements = static_cast<int>(setting.placements.size());
  // The bench's flags (side streams, persisting L2) are its own; a library is named here too.
  result.libraries_loaded_by_kernel = compute_libraries_loaded_since(setting.library_baseline);
}

}  // namespace

int placements_for(const kernel::kernel_plan& plan) {
  std::uint64_t bytes = 0;
  for (const auto& b : plan.buffers) bytes += static_cast<std::uint64_t>(b.bytes);
  if (bytes == 0) return most_placements;
  return static_cast<int>(std::clamp<std::uint64_t>(placement_budget_bytes / bytes, 1, most_placements));
}

void run_timing_blocks(const turn_setting& setting, child_report& result, block_channel& channel) {
  try {
    serve(setting, result, channel);
  } catch (const kernel_failure& failure) {
    result.status = failure.status;
    result.reason = failure.reason;
    // The parent is waiting for this block's reply: it gets the failure instead (unless it
    // has gone already; the result file says it too).
    try {
      block_reply reply;
      reply.status = failure.status;
      reply.reason = failure.reason;
      channel.reply(std::move(reply));
    } catch (const error&) {
    }
  }
}

}  // namespace kopt::harness
