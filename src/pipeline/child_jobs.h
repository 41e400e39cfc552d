#pragma once
// The measuring children's jobs, one function per kind (harness/bench_job.h), made from the
// front end's settings: a job whose sources, problem, seed, sampling and tolerances are filled
// in. The settings' kind is kernel (a bench) or profile (what ncu runs, with its calls), and
// their validation part, when they have one, says how many seeds and whether to time (a
// validation-only run). Each function sets its kind's part and clears every other kind's, so no
// job reaches a child with a part left over from the job it was copied from.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/bench_job.h"

namespace kopt::pipeline {

// Settings for a run that validates and does not time (a sanitizer pass, a shape check).
harness::bench_job validation_only(harness::bench_job settings, int seeds = 2);
// Settings for the kernel's profile window with `calls` solve() calls in it (kopt profile,
// bench --profile-mode).
harness::bench_job profile_settings(harness::bench_job settings, int calls);
// Whether the settings ask for the kernel's profile window rather than a bench.
bool profiles(const harness::bench_job& settings);
// Whether a bench with these settings times the kernel (not profile, not validation only).
bool times_the_kernel(const harness::bench_job& settings);

// The kernel's own job: validated on the settings' seeds, its outputs kept in `evidence_dir`
// ("": nothing to compare with), then timed unless the settings are validation only.
harness::bench_job kernel_job(const harness::bench_job& settings, const std::string& evidence_dir);

// The reference's: run on the keys the kernel's process made, its outputs written in
// `evidence_dir`, then timed when `timed`. The kernel's library is never named in it.
harness::bench_job reference_job(const harness::bench_job& settings,
                                 const std::vector<harness::evidence_key>& keys,
                                 const std::string& evidence_dir, bool timed);

// The seeds the kernel's job validates on (its settings' count, then the one after timing):
// the seeds a Triton problem's setup() must have made tensors for.
std::vector<std::uint64_t> kernel_seeds(const harness::bench_job& settings);

// A Triton problem's setup() for each of `seeds`, its tensors left in `evidence_dir`;
// `owner`: whose setup() it is ("reference" or "kernel").
harness::bench_job problem_job(const harness::bench_job& settings, const std::string& evidence_dir,
                               const std::vector<std::uint64_t>& seeds, const std::string& owner);

// Warm-up, then the settings' profile calls (1 unless set) inside the profiler window.
harness::bench_job profile_job(const harness::bench_job& settings);

// A version held open for a comparison in turns, beside `peers` other versions' processes.
harness::bench_job blocks_job(const harness::bench_job& settings, const std::filesystem::path& source,
                              const std::filesystem::path& library, int peers);

}  // namespace kopt::pipeline
