#include "analyze/analysis_reader.h"

#include <cstdlib>

#include <fmt/format.h>

#include "analyze/analysis_fields.h"
#include "analyze/analysis_json.h"
#include "core/error.h"

namespace kopt::analyze {
namespace {

std::string text(const json& node, const char* key) { return node.at(key).get<std::string>(); }

// A source line: a whole number that fits (a float or a huge one would not convert safely);
// checked before the line is read as an int.
void check_line_number(const json& node, const std::string& where) {
  const json& value = node.at("line");
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 100000000) {
    throw error(fmt::format("{}: a source line number is {}, not a line: run kopt analyze on the profile again", where,
                            json_text(value, -1).substr(0, 40)));
  }
}

kernel_diagnosis kernel_from(const json& k, int version, const std::string& where) {
  using namespace analysis_fields;
  kernel_diagnosis d;
  d.launch_id = text(k, "launch_id");
  d.kernel_name = text(k, "kernel_name");
  const std::string cls = text(k, "class");
  const auto parsed = parse_bottleneck(cls);
  if (!parsed) throw error(fmt::format("{}: unknown bottleneck class \"{}\": analyse the profile again", where, cls));
  d.verdict.cls = *parsed;
  d.verdict.at_hardware_limit = k.at("at_hardware_limit").get<bool>();
  d.verdict.reason = text(k, "reason");
  d.verdict.numbers = fields_from_list<evidence>(k.at("evidence"), evidence_keys);
  d.launch = fields_from<launch_shape>(k.at("launch"), launch_shape_keys);
  d.sol = fields_from<speed_of_light>(k.at("speed_of_light"), speed_of_light_keys);
  d.occ = fields_from<occupancy>(k.at("occupancy"), occupancy_keys);
  d.issue = fields_from<issue_stats>(k.at("issue"), issue_stats_keys);
  d.issue.stalls = fields_from_list<stall_reason>(k.at("issue").at("stalls"), stall_reason_keys);
  json roof = k.at("roofline");
  if (version < 3) roof["peak_fp64_flop_per_s"] = nullptr;  // v1 and v2 have no FP64 peak
  d.roof = fields_from<roofline>(roof, roofline_keys);
  d.memory = fields_from<memory_access>(k.at("memory_access"), memory_access_keys);
  d.tensor = fields_from<tensor_core_use>(k.at("tensor_cores"), tensor_core_use_keys);
  d.cross_check = fields_from<ncu_cross_check>(k.at("ncu_cross_check"), ncu_cross_check_keys);
  d.ncu_advice = fields_from_list<profile::rule_advice>(k.at("ncu_advice"), rule_advice_keys);
  for (auto& a : d.ncu_advice) {
    a.launch_id = d.launch_id;
    a.kernel_name = d.kernel_name;
  }
  d.recommendations = fields_from_list<recommendation>(k.at("recommendations"), recommendation_keys);
  if (k.contains("hottest_source_lines")) {
    for (const json& h : k.at("hottest_source_lines")) {
      check_line_number(h, where);
      d.hottest_source_lines.push_back(fields_from<hot_source_line>(h, hot_source_line_keys));
    }
  }
  d.notes = k.at("notes").get<std::vector<std::string>>();
  return d;
}

}  // namespace

analysis analysis_from_json(const json& document, const std::string& where) {
  const std::string schema = document.is_object() && document.contains("schema") && document["schema"].is_string()
                                 ? document["schema"].get<std::string>()
                                 : "";
  const std::string prefix = "kopt.analysis/v";
  int version = 0;
  if (schema.rfind(prefix, 0) == 0) version = std::atoi(schema.c_str() + prefix.size());
  if (version < 1 || version > analysis_schema_version) {
    throw error(fmt::format("{} is not a kopt analysis this kopt reads (schema \"{}\", expected kopt.analysis/v1 to "
                            "v{}): run kopt analyze on the profile again",
                            where, schema, analysis_schema_version));
  }
  try {
    analysis a = fields_from<analysis>(document, analysis_fields::analysis_keys);
    a.source_file = document.value("source_file", "");  // v1 has none
    for (const json& k : document.at("kernels")) a.kernels.push_back(kernel_from(k, version, where));
    return a;
  } catch (const json::exception& e) {
    throw error(fmt::format("{} lacks a field kopt analyze writes ({}): run kopt analyze on the profile again", where,
                            e.what()));
  }
}

analysis read_analysis_file(const std::filesystem::path& file) {
  return analysis_from_json(read_json_file(file), file.string());
}

const kernel_diagnosis* slowest_launch(const analysis& a) {
  const kernel_diagnosis* slowest = nullptr;
  for (const auto& k : a.kernels) {
    if (slowest == nullptr || k.launch.duration_ns.value_or(0) > slowest->launch.duration_ns.value_or(0)) slowest = &k;
  }
  return slowest;
}

}  // namespace kopt::analyze
