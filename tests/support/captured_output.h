#pragma once
// What a piece of code in this process printed on standard output and standard error, for
// tests that run kopt's real commands in-process (cli::run_command_line).

#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt::testing {

struct captured_run {
  int status = 0;
  std::string out;
  std::string err;
};

inline captured_run run_captured(const std::function<int()>& run) {
  scratch_dir dir;
  const std::string out_file = (dir.path() / "stdout").string();
  const std::string err_file = (dir.path() / "stderr").string();
  std::fflush(nullptr);
  const int saved_out = ::dup(STDOUT_FILENO);
  const int saved_err = ::dup(STDERR_FILENO);
  std::FILE* out = std::fopen(out_file.c_str(), "w");
  std::FILE* err = std::fopen(err_file.c_str(), "w");
  ::dup2(::fileno(out), STDOUT_FILENO);
  ::dup2(::fileno(err), STDERR_FILENO);
  captured_run result;
  try {
    result.status = run();
  } catch (...) {
    std::fflush(nullptr);
    ::dup2(saved_out, STDOUT_FILENO);
    ::dup2(saved_err, STDERR_FILENO);
    throw;
  }
  std::fflush(nullptr);
  ::dup2(saved_out, STDOUT_FILENO);
  ::dup2(saved_err, STDERR_FILENO);
  ::close(saved_out);
  ::close(saved_err);
  std::fclose(out);
  std::fclose(err);
  result.out = read_text_file(out_file, "captured output");
  result.err = read_text_file(err_file, "captured output");
  return result;
}

}  // namespace kopt::testing
