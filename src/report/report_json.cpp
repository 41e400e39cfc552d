#include "report/report_json.h"

#include <algorithm>

#include "memory/strategy_summaries.h"
#include "report/roofline_chart.h"

namespace kopt::report {
namespace {

json diagnosis_json(const iteration_diagnosis& d) {
  const analyze::kernel_diagnosis& k = d.launch;
  const analyze::roofline& r = k.roof;
  json evidence = json::array();
  for (const auto& e : k.verdict.numbers) {
    evidence.push_back({{"name", e.name}, {"value", e.value}, {"unit", e.unit}, {"metric", e.metric}});
  }
  json recommendations = json::array();
  for (const auto& rec : k.recommendations) {
    if (recommendations.size() == 3) break;
    recommendations.push_back({{"id", rec.id}, {"title", rec.title}, {"why", rec.why}, {"tags", rec.tags}});
  }
  json hot_lines = json::array();
  for (const auto& h : k.hottest_source_lines) {
    hot_lines.push_back({{"file", h.file}, {"line", h.line}, {"share_pct", h.share_pct}, {"top_stall", h.top_stall},
                         {"text", h.text}});
  }
  return {{"iteration", d.iteration},
          {"launches", d.launches},
          {"launch_id", k.launch_id},
          {"kernel_name", k.kernel_name},
          {"class", std::string(analyze::to_string(k.verdict.cls))},
          {"at_hardware_limit", k.verdict.at_hardware_limit},
          {"reason", k.verdict.reason},
          {"evidence", evidence},
          {"roofline",
           {{"arithmetic_intensity_flop_per_byte", json_or_null(r.arithmetic_intensity)},
            {"achieved_flop_per_s", json_or_null(achieved_flop_per_s(r))},
            {"dram_bytes_per_s", json_or_null(r.dram_bytes_per_s)},
            {"bound_by", r.bound_by},
            {"headroom_factor", json_or_null(r.headroom)}}},
          {"resources",
           {{"registers_per_thread", json_or_null(k.launch.registers_per_thread)},
            {"shared_mem_per_block_bytes", json_or_null(k.launch.shared_mem_per_block_bytes)},
            {"occupancy_theoretical_pct", json_or_null(k.occ.theoretical_pct)},
            {"occupancy_achieved_pct", json_or_null(k.occ.achieved_pct)},
            {"occupancy_limiters", k.occ.limiters}}},
          {"recommendations", recommendations},
          {"hottest_source_lines", hot_lines}};
}

json roofs_json(const run_report& report) {
  const auto from = roofs_iteration(report);
  if (!from) return nullptr;
  const analyze::roofline& r = report.diagnosis_of(*from)->launch.roof;
  return {{"from_iteration", *from},
          {"peak_dram_bytes_per_s", json_or_null(r.peak_dram_bytes_per_s)},
          {"peak_fp32_flop_per_s", json_or_null(r.peak_fp32_flop_per_s)},
          {"peak_tensor_flop_per_s", json_or_null(r.peak_tensor_flop_per_s)},
          {"tensor_type", r.tensor_type}};
}

}  // namespace

json to_json(const run_report& report) {
  json diagnoses = json::array();
  for (const auto& d : report.diagnoses) diagnoses.push_back(diagnosis_json(d));
  json strategies = json::array();
  for (const auto& s : report.strategies) {
    strategies.push_back({{"fingerprint", s.fingerprint},
                          {"tags", s.tags},
                          {"iterations", s.iterations},
                          {"outcomes", s.outcomes},
                          {"blocked", s.blocked},
                          {"memory", s.history ? to_document(*s.history) : json(nullptr)}});
  }
  json changes = json::array();
  for (const auto& c : report.changes) {
    changes.push_back({{"iteration", c.iteration},
                       {"parent", c.parent ? json(*c.parent) : json(nullptr)},
                       {"diff", c.diff},
                       {"note", c.note}});
  }
  const iteration_diagnosis* best = report.best_diagnosis();
  return with_schema(report_schema, report_schema_version,
                     {{"run_dir", report.run_dir.string()},
                      {"record_check", loop::to_json(report.record)},
                      {"manifest", loop::to_json(report.manifest)},
                      {"diagnoses", diagnoses},
                      {"best_diagnosis", best ? json(best->iteration) : json(nullptr)},
                      {"roofs", roofs_json(report)},
                      {"strategies", strategies},
                      {"changes", changes},
                      {"confirmation",
                       {{"state", report.confirmation_state()},
                        {"current", report.confirmation_current},
                        {"record", report.confirmation ? to_document(*report.confirmation) : json(nullptr)}}},
                      {"toolkit_adoption", report.adoption ? to_document(*report.adoption) : json(nullptr)},
                      {"memory",
                       {{"database", report.memory.database},
                        {"read", report.memory.read},
                        {"note", report.memory.note}}}});
}

}  // namespace kopt::report
