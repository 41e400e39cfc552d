#pragma once
// The files the reference's side will load, held still across the kernel's measuring process.
// The kernel's process runs as the same user as kopt, so the code under test can rewrite any
// file kopt can: the reference's source, its library in the compile cache, kopt's own runner.
// Rewritten before the reference's process loads them, they would make the reference agree
// with a wrong kernel, or run slower. The parent fingerprints them before the kernel's
// process starts and again once it has ended (when nothing of the kernel is left running, so
// nothing can change them between the check and the load); a difference fails the run.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/bench_job.h"

namespace kopt::pipeline {

class reference_files {
 public:
  // Fingerprints, now, the reference's source and library, kopt's harness library and Python
  // runner (the whole runner package), and kopt itself (which runs the reference's process).
  explicit reference_files(const harness::bench_job& job);

  // The first file that changed or vanished since, or nothing.
  std::optional<std::string> changed() const;

  std::size_t count() const { return m_files.size(); }

  // SHA-256 over the files' contents in order (not their paths): what the reference's side
  // runs, as a key for what it measured (reference_timing_cache.h).
  std::string content_digest() const;

 private:
  std::vector<std::pair<std::string, std::string>> m_files;  // path, SHA-256 ("" when unreadable)
};

}  // namespace kopt::pipeline
