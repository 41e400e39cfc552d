#include "env/preflight_writer.h"

#include <fmt/format.h>

#include "core/version.h"

namespace kopt::env {
namespace {

// Markdown table cells must not contain raw pipes or line breaks.
std::string cell(std::string text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::string preflight_markdown(const preflight_report& report) {
  std::string md = "# kopt preflight check\n\n";
  md += fmt::format("- generated: {}\n- kopt: {}\n- backend: {}\n- GPU ordinal: {}\n\n", report.generated_at,
                    version_string, kernel::to_string(report.options.backend), report.options.gpu);
  md += "| check | status | required | found | how to fix |\n|---|---|---|---|---|\n";
  for (const auto& item : report.items) {
    md += fmt::format("| {} | {} | {} | {} | {} |\n", item.name, to_string(item.state),
                      item.required ? "yes" : "no", cell(item.value), cell(item.fix));
  }
  const auto problems = report.problems();
  if (problems.empty()) {
    md += "\n**Ready**: everything the backend needs is here.\n";
  } else {
    md += fmt::format("\n**Not ready**: {} required item(s) missing:\n\n", problems.size());
    for (const check_item* item : problems) md += fmt::format("- {}: {} — {}\n", item->name, item->value, item->fix);
  }
  return md;
}

json preflight_json(const preflight_report& report) {
  json checks = json::array();
  for (const auto& item : report.items) {
    checks.push_back(json{{"name", item.name},
                          {"status", to_string(item.state)},
                          {"required", item.required},
                          {"found", item.value},
                          {"fix", item.fix}});
  }
  json devices = json::array();
  for (const auto& device : report.gpus.devices) devices.push_back(to_json(device));
  return with_schema("preflight_check", 1,
                     json{{"generated_at", report.generated_at},
                          {"kopt_version", version_string},
                          {"ready", report.ready()},
                          {"backend", kernel::to_string(report.options.backend)},
                          {"gpu_ordinal", report.options.gpu},
                          {"checks", checks},
                          {"driver", json{{"version", report.gpus.driver_version},
                                          {"cuda_version", format_cuda_version(report.gpus.driver_cuda_version)},
                                          {"problem", report.gpus.driver_problem}}},
                          {"devices", devices},
                          {"toolchain", report.facts}});
}

}  // namespace kopt::env
