#pragma once
// Helpers shared by the kernel front end's tests.

#include <filesystem>
#include <string>

#include "core/error.h"
#include "core/files.h"

namespace kopt::kernel::testing {

// The headline of the kopt::error `action` throws, or "<no error>".
template <typename Action>
std::string error_headline(Action&& action) {
  try {
    action();
  } catch (const kopt::error& e) {
    return e.headline();
  }
  return "<no error>";
}

// The detail of the kopt::error `action` throws, or "<no error>".
template <typename Action>
std::string error_detail(Action&& action) {
  try {
    action();
  } catch (const kopt::error& e) {
    return e.detail();
  }
  return "<no error>";
}

inline std::filesystem::path signature_corpus() {
  return std::filesystem::path(KOPT_TEST_DATA_DIR) / "signatures";
}

inline std::string read_corpus(const std::string& name) {
  return read_text_file(signature_corpus() / name);
}

}  // namespace kopt::kernel::testing
