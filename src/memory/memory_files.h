#pragma once
// The strategy memory as a file: kopt's own export (every outcome, schema
// kopt.strategy_memory/v1) and the Python toolkit's global_strategy_memory.json, so that what a
// team learned with the toolkit carries over. Importing is idempotent: an outcome already
// present (same run, iteration and candidate) is left alone. It is also one transaction: every
// field of the file is checked first (outcome_document.h, toolkit_memory_file.h), and a file
// refused half-way stores nothing.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "memory/memory_store.h"

namespace kopt::memory {

struct import_report {
  std::string format;                        // "kopt" or "python toolkit"
  std::size_t added = 0;
  std::size_t already_present = 0;
  // Toolkit entries whose key is not the fingerprint of their tags: skipped, listed here.
  std::vector<std::string> fingerprint_mismatches;
};

// Throws kopt::error naming the file (and the field) when it cannot be read, is neither format,
// or holds a value kopt refuses; nothing is stored then, and the error says so.
import_report import_memory_file(memory_store& store, const std::filesystem::path& file);

// Writes every outcome, atomically.
void export_memory_file(const memory_store& store, const std::filesystem::path& file);

}  // namespace kopt::memory
