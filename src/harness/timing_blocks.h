#pragma once
// A comparison in turns, on the measuring child's side (block_channel.h): the version is loaded
// once and timed in the blocks the parent asks for, under the rules of bench's timing (fresh
// inputs and poisoned outputs for every call, the flush, the judge's rules on every sample,
// guards and inputs checked on calls chosen at random), until the channel closes. Nothing is
// validated (bench did that) and no outputs are kept.
//
// The version is bound to several sets of buffers, allocated side by side, and block K runs on
// set K mod N. Seen on an H200: two processes timing the same 4.6 µs kernel differed by up to
// 3 %, steadily, each with its buffers where its allocator had put them. Taking turns over
// placements makes that part of every round's noise rather than a difference between versions,
// and the comparison's interval counts what is left of it (measure/placement_interval.h).
// A Triton runner holds one set of tensors at a time: it binds them again when a block moves to
// another set (version_under_test::select).

#include <string>
#include <vector>

#include "harness/child_report.h"
#include "harness/bench_job.h"
#include "harness/bench_version.h"
#include "harness/block_channel.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/seed_inputs.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct turn_setting {
  const bench_job& job;
  const kernel::kernel_plan& plan;
  std::vector<bench_version*> placements;  // the version, bound to each of its buffer sets
  seed_inputs& seeds;
  input_generator& generator;
  const gpu_context& gpu;
  std::vector<std::string> library_baseline;  // compute libraries loaded before the version was
};

// How many buffer sets a version takes turns over: 32, fewer when they would pass 2 GiB, at least 1.
int placements_for(const kernel::kernel_plan& plan);

// Fills the report (status, reason, the blocks and their checks); a failure is also the reply to
// the block it happened in. Environment problems throw kopt::error.
void run_timing_blocks(const turn_setting& setting, child_report& result, block_channel& channel);

}  // namespace kopt::harness
