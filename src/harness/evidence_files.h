#pragma once
// What the measuring children hand the parent so that the parent, not the process running the
// code under test, gives the verdict. Each set of inputs a version ran on has a key: a
// validation seed (inputs made on the host from the seed) or a checked timed call (inputs
// made on the device from (run seed, call index)). Either side can make the same inputs again
// from the key alone, so only outputs cross: one raw file per output buffer, in a folder per
// key, under a private folder the parent made for that side.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"
#include "core/json_io.h"
#include "core/mapped_file.h"
#include "harness/buffer_contents.h"
#include "harness/device_buffers.h"
#include "harness/runner_documents.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

enum class evidence_kind { seed, call };
BOOST_DESCRIBE_ENUM(evidence_kind, seed, call)

struct evidence_key {
  evidence_kind kind = evidence_kind::seed;
  std::uint64_t value = 0;  // the seed, or the timed call's index
  std::string when;         // "before timing", "after timing", "timed" (for messages)
};
BOOST_DESCRIBE_STRUCT(evidence_key, (), (kind, value, when))

// "seed_3", "call_57": the key's folder name.
std::string folder_name(const evidence_key& key);

// Writes every non-input buffer of `outputs` under `dir`/folder_name(key), then marks the key
// complete (evidence_complete), so that the parent may read it while the writer goes on.
void write_evidence(const std::filesystem::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                    const buffer_contents& outputs);
// The same from the buffers themselves: each output downloaded straight into its file.
void write_evidence(const std::filesystem::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                    const device_buffers& buffers);

// Whether the key's outputs under `dir` were all written and closed, by the mark its writer
// leaves last. Only a writer the parent trusts (the reference's process) is taken at its mark:
// the kernel's outputs are read once its process has ended.
bool evidence_complete(const std::filesystem::path& dir, const evidence_key& key);

// Where a Python reference's runner leaves the module's tolerances (`atol`, `rtol`: numbers,
// or null where the module names none) as soon as it has loaded the module, before any key's
// outputs, so that the parent compares early with the tolerances of the verdict. No key's
// folder has this name.
std::filesystem::path announced_tolerances_file(const std::filesystem::path& dir);

// The reference's tolerances as announced in `dir`, once the file is there: (atol, rtol).
// Nothing while it is not there; kopt::error when it is not what the runner writes.
// Read by its checking reader: kopt::error naming the field when it is not the runner's document.
using announced_tolerances = tolerance_pair;
std::optional<announced_tolerances> read_announced_tolerances(const std::filesystem::path& dir);

// One key's outputs as the parent reads them: the files mapped, not copied (they can be
// hundreds of MiB per key, and every key is read once).
struct mapped_evidence {
  std::vector<mapped_file> files;  // the mappings `buffers` points into
  buffer_views buffers;            // plan order; input entries empty
};

// Reads them back. `side` names the writer for messages ("the kernel's measuring process").
// Throws kopt::error when a file is missing or has the wrong size.
mapped_evidence read_evidence(const std::filesystem::path& dir, const evidence_key& key,
                              const kernel::kernel_plan& plan, const char* side);

}  // namespace kopt::harness
