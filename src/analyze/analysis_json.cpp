#include "analyze/analysis_json.h"

#include "analyze/analysis_fields.h"

namespace kopt::analyze {
namespace {

json kernel_json(const kernel_diagnosis& d) {
  using namespace analysis_fields;
  json issue = fields_json(d.issue, issue_stats_keys);
  issue["stalls"] = fields_json_list(d.issue.stalls, stall_reason_keys);
  return {
      {"launch_id", d.launch_id},
      {"kernel_name", d.kernel_name},
      {"class", std::string(to_string(d.verdict.cls))},
      {"at_hardware_limit", d.verdict.at_hardware_limit},
      {"reason", d.verdict.reason},
      {"evidence", fields_json_list(d.verdict.numbers, evidence_keys)},
      {"launch", fields_json(d.launch, launch_shape_keys)},
      {"speed_of_light", fields_json(d.sol, speed_of_light_keys)},
      {"occupancy", fields_json(d.occ, occupancy_keys)},
      {"issue", issue},
      {"roofline", fields_json(d.roof, roofline_keys)},
      {"memory_access", fields_json(d.memory, memory_access_keys)},
      {"tensor_cores", fields_json(d.tensor, tensor_core_use_keys)},
      {"ncu_cross_check", fields_json(d.cross_check, ncu_cross_check_keys)},
      {"ncu_advice", fields_json_list(d.ncu_advice, rule_advice_keys)},
      {"recommendations", fields_json_list(d.recommendations, recommendation_keys)},
      {"hottest_source_lines", fields_json_list(d.hottest_source_lines, hot_source_line_keys)},
      {"notes", d.notes},
  };
}

}  // namespace

json to_json(const analysis& a) {
  json body = fields_json(a, analysis_fields::analysis_keys);
  body["source_file"] = a.source_file;
  json kernels = json::array();
  for (const auto& k : a.kernels) kernels.push_back(kernel_json(k));
  body["kernels"] = std::move(kernels);
  return with_schema("analysis", analysis_schema_version, body);
}

}  // namespace kopt::analyze
