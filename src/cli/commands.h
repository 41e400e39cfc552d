#pragma once
// Factories of the subcommands; each lives in its own <name>_command.cpp.

#include <memory>

#include "cli/command.h"

namespace kopt::cli {

std::unique_ptr<command> make_preflight_command();
std::unique_ptr<command> make_inspect_command();
std::unique_ptr<command> make_compile_command();
std::unique_ptr<command> make_bench_command();
std::unique_ptr<command> make_profile_command();
std::unique_ptr<command> make_compare_command();
std::unique_ptr<command> make_tune_command();
std::unique_ptr<command> make_skills_command();
std::unique_ptr<command> make_mcp_command();
std::unique_ptr<command> make_harness_command();
std::unique_ptr<command> make_text_pages_command();
std::unique_ptr<command> make_analyze_command();
std::unique_ptr<command> make_kb_command();
std::unique_ptr<command> make_memory_command();
std::unique_ptr<command> make_loop_command();
std::unique_ptr<command> make_report_command();
std::unique_ptr<command> make_completion_command();
std::unique_ptr<command> make_worker_command();

}  // namespace kopt::cli
