#pragma once
// The small interface through which the one bench protocol (kernel_protocol.h) drives every
// backend: a version is something that can be called on the buffers it was bound to. A CUDA
// kernel or a native reference is its solve() (bench_version.h); a Triton module is its
// run_kernel(), called back into kopt's Python runner (harness_abi). Inputs, poison, guards,
// timing and the checks are the protocol's, never the version's.

namespace kopt::harness {

class version_under_test {
 public:
  virtual ~version_under_test() = default;

  // One call. Returns when the call returned (its GPU work may still run). A failure of the
  // code itself, seen on the host (a Python exception, say), throws kernel_failure.
  virtual void invoke() = 0;

  // Makes the calls that follow run on this version's buffers. Called outside any timed region,
  // before a block of a comparison in turns moves to another set of buffers (timing_blocks.h).
  // A version bound once and for all, as solve() is, has nothing to do; a runner that holds one
  // binding at a time (the Triton runner's tensors) binds again here.
  virtual void select() {}
};

}  // namespace kopt::harness
