#pragma once
// What the parent reads of a Triton kernel's evidence: its tensors come from the module's
// setup(), not from an annotation, so the plan the outputs are compared by is the manifest the
// kernel's process left with each key's inputs (python/kopt_runtime/evidence.py); and the inputs
// of two validation seeds show whether setup() draws them from the seed at all (EXPLOITS.md #17).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/evidence_files.h"
#include "kernel/buffer_plan.h"

namespace kopt::pipeline {

// The buffers of `key`'s tensors.json under `dir`, in its order. Throws kopt::error when it is
// missing or names an element type kopt does not know.
kernel::kernel_plan plan_from_manifest(const std::filesystem::path& dir, const harness::evidence_key& key);

// "seed blindness: ..." when the first two validation seeds' inputs are byte for byte the same
// (and there is an input); `module` names the kernel file for the message.
std::optional<std::string> seed_blindness(const std::filesystem::path& dir, const std::vector<harness::evidence_key>& keys,
                                          const kernel::kernel_plan& plan, const std::string& module);

}  // namespace kopt::pipeline
