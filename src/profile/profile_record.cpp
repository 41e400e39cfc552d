#include "profile/profile_record.h"

#include <fmt/format.h>

namespace kopt::profile {
namespace {

json kernel_json(const profiled_kernel& k) {
  return json{{"id", k.id},
              {"name", k.name},
              {"grid", k.grid},
              {"block", k.block},
              {"duration_ns", json_or_null(k.duration_ns)},
              {"sm_throughput_pct", json_or_null(k.sm_throughput_pct)},
              {"memory_throughput_pct", json_or_null(k.memory_throughput_pct)}};
}

}  // namespace

json profile_document(const profile_record& r) {
  json kernels = json::array();
  for (const profiled_kernel& k : r.kernels) kernels.push_back(kernel_json(k));
  json selection = json{{"set", r.capture.set},
                        {"sections", r.capture.sections},
                        {"metrics", r.capture.metrics},
                        {"kernel_name_regex", r.capture.kernel_name_regex},
                        {"launch_skip", r.capture.launch_skip ? json(*r.capture.launch_skip) : json(nullptr)},
                        {"launch_count", r.capture.launch_count ? json(*r.capture.launch_count) : json(nullptr)},
                        {"profile_calls", r.profile_calls},
                        {"warmup_calls", r.warmup}};
  json body = json{{"status", "ok"},
                   {"ncu", json{{"path", r.ncu_path}, {"version", r.ncu_version}}},
                   {"ncu_command", r.ncu_command},
                   {"ncu_argv", r.ncu_argv},
                   {"by_hand_command", r.by_hand_command},
                   {"selection", selection},
                   {"files", r.files},
                   {"source_csv_problem", r.source_problem.empty() ? json(nullptr) : json(r.source_problem)},
                   {"kernel_count", r.kernels.size()},
                   {"kernels", kernels},
                   {"capture_seconds", r.capture_seconds},
                   {"wall_seconds", r.wall_seconds},
                   {"phases_s", to_document(r.phases_s)},
                   {"sandbox", r.sandbox ? json(*r.sandbox) : json(nullptr)}};
  return with_schema("profile", 1, body);
}

std::string kernel_summary_line(const profiled_kernel& k) {
  std::string line = fmt::format("[{}] {}  grid {}  block {}", k.id, k.name, k.grid, k.block);
  if (k.duration_ns) line += fmt::format("  {:.2f} us", *k.duration_ns / 1000.0);
  if (k.sm_throughput_pct) line += fmt::format("  SM {:.1f} %", *k.sm_throughput_pct);
  if (k.memory_throughput_pct) line += fmt::format("  memory {:.1f} %", *k.memory_throughput_pct);
  return line;
}

}  // namespace kopt::profile
