#pragma once
// The reference's timing, kept from one bench to the next. In a loop every version is judged
// against the same reference on the same problem: timing it again each time costs a second or
// more and tells nothing new. An entry is found only by a key over everything the timing
// depends on: what the reference's side runs (its source or library, kopt's runner and
// harness library, kopt itself: reference_files.h), the problem (buffers, dimensions, value
// distributions, a Triton problem's tensors), the seed, the protocol (cold or hot, warm-up,
// samples, time limits), the tolerances, the GPU, its driver, and kopt's version.
//
// What is not cached: the reference's outputs. A bench checks timed calls chosen at random
// after they ran (docs/integrity.md), so their reference outputs are new in every run, and
// the reference's process runs for them anyway; it makes the seeds' outputs in the same pass.
//
// The code under test runs as kopt's user: a cached timing it could rewrite would let it make
// the reference look slow to every later version. An entry is used and stored only when the
// kernel's process ran with its writes restricted (docs/integrity.md, rule 10) to folders
// that do not hold the cache; otherwise the reference is timed afresh and the result says why.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/json_io.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "harness/runner_documents.h"
#include "measure/timing_document.h"
#include "kernel/buffer_plan.h"

namespace kopt::pipeline {

// $KOPT_CACHE_DIR/reference_timing (core/files.h's cache_root()).
std::filesystem::path default_reference_timing_folder();

// What the timing depends on, as a document (kept in the entry, for a person to read).
// `files_digest`: reference_files::content_digest() of the run.
json reference_timing_key_fields(const harness::bench_job& job, const kernel::kernel_plan& plan,
                                 const env::gpu_device& device, const std::string& driver_version,
                                 const std::string& files_digest);

// SHA-256 of the fields: the entry's name.
std::string reference_timing_key(const json& fields);

// Whether a kernel's process whose result said `sandbox` ("Landlock ABI N: writes only under
// A, B, ...") could not write under `folder`: false when it was not restricted at all.
bool out_of_kernel_reach(const std::optional<std::string>& sandbox, const std::filesystem::path& folder);

// One entry of the cache, as its file holds it.
struct reference_timing_entry {
  static constexpr std::string_view document_schema = "kopt.reference_timing/v2";
  std::string key;
  std::string measured_at;              // UTC, ISO 8601
  std::int64_t measured_at_unix = 0;    // [s]
  json fields = nullptr;                // what the key covers (reference_timing_key_fields)
  std::optional<harness::torch_facts> torch;  // a Python reference's torch when it was timed (version, TF32)
  measure::timing_document timing;      // the reference's timing document, as its process reported it
};
BOOST_DESCRIBE_STRUCT(reference_timing_entry, (), (key, measured_at, measured_at_unix, fields, torch, timing))

struct cached_reference_timing {
  measure::timing_document timing;
  std::optional<harness::torch_facts> torch;
  std::string measured_at;  // UTC, ISO 8601
  std::string key;
};

class reference_timing_cache {
 public:
  // Entries older than `max_age` are timed again: the GPU's clocks and the machine's load move.
  static constexpr std::chrono::hours default_max_age{24};

  explicit reference_timing_cache(std::filesystem::path folder,
                                  std::chrono::seconds max_age = default_max_age);

  // The entry under `key`, if there is one that is young enough and well formed (a damaged or
  // foreign file is a miss, never an error).
  std::optional<cached_reference_timing> find(const std::string& key) const;

  // Writes the entry atomically (a reader sees the old one or the new one). A cache that
  // cannot be written is not an error of the bench: returns why, "" when stored.
  std::string store(const std::string& key, const json& fields, const measure::timing_document& timing,
                    const std::optional<harness::torch_facts>& torch) const;

  const std::filesystem::path& folder() const { return m_folder; }

 private:
  std::filesystem::path m_folder;
  std::chrono::seconds m_max_age;
};

}  // namespace kopt::pipeline
