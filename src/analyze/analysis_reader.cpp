#include "analyze/analysis_reader.h"

#include <cstdlib>

#include <fmt/format.h>

#include "analyze/analysis_json.h"
#include "core/error.h"

namespace kopt::analyze {
namespace {

// Numbers the writer leaves null when a metric was missing.
std::optional<double> number(const json& node, const char* key) {
  const json& value = node.at(key);
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

std::string text(const json& node, const char* key) { return node.at(key).get<std::string>(); }

// A source line: a whole number that fits (a float or a huge one would not convert safely).
int line_number(const json& node, const std::string& where) {
  const json& value = node.at("line");
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 100000000) {
    throw error(fmt::format("{}: a source line number is {}, not a line: run kopt analyze on the profile again", where,
                            json_text(value, -1).substr(0, 40)));
  }
  return static_cast<int>(value.get<std::int64_t>());
}

std::vector<std::string> texts(const json& node, const char* key) {
  return node.at(key).get<std::vector<std::string>>();
}

launch_shape launch_from(const json& l) {
  launch_shape s;
  s.block_size = text(l, "block_size");
  s.grid_size = text(l, "grid_size");
  s.threads_per_block = number(l, "threads_per_block");
  s.blocks = number(l, "blocks");
  s.waves_per_sm = number(l, "waves_per_sm");
  s.sm_count = number(l, "sm_count");
  s.registers_per_thread = number(l, "registers_per_thread");
  s.shared_mem_per_block_bytes = number(l, "shared_mem_per_block_bytes");
  s.duration_ns = number(l, "duration_ns");
  s.sm_clock_hz = number(l, "sm_clock_hz");
  s.dram_clock_hz = number(l, "dram_clock_hz");
  return s;
}

speed_of_light sol_from(const json& n) {
  speed_of_light s;
  s.sm_pct = number(n, "sm_pct");
  s.memory_pct = number(n, "memory_pct");
  s.dram_pct = number(n, "dram_pct");
  s.l2_pct = number(n, "l2_pct");
  s.l1_pct = number(n, "l1_pct");
  s.memory_unit = text(n, "memory_unit");
  s.memory_unit_metric = text(n, "memory_unit_metric");
  s.memory_unit_how = text(n, "memory_unit_how");
  return s;
}

issue_stats issue_from(const json& n) {
  issue_stats s;
  s.issue_active_per_cycle = number(n, "issue_active_per_cycle");
  s.eligible_warps_per_cycle = number(n, "eligible_warps_per_cycle");
  s.cycles_per_issue = number(n, "cycles_per_issue");
  s.busiest_pipe = text(n, "busiest_pipe");
  s.busiest_pipe_pct = number(n, "busiest_pipe_pct");
  for (const json& st : n.at("stalls")) {
    s.stalls.push_back({text(st, "reason"), st.at("cycles_per_issue").get<double>(), st.at("share_pct").get<double>()});
  }
  return s;
}

roofline roofline_from(const json& n) {
  roofline r;
  r.fp32_flop = number(n, "fp32_flop");
  r.fp64_flop = number(n, "fp64_flop");
  r.fp16_flop = number(n, "fp16_flop");
  r.tensor_flop = number(n, "tensor_flop");
  r.tensor_type = text(n, "tensor_type");
  r.dram_bytes = number(n, "dram_bytes");
  r.scalar_flop_per_s = number(n, "scalar_flop_per_s");
  r.tensor_flop_per_s = number(n, "tensor_flop_per_s");
  r.dram_bytes_per_s = number(n, "dram_bytes_per_s");
  r.arithmetic_intensity = number(n, "arithmetic_intensity_flop_per_byte");
  r.peak_fp32_flop_per_s = number(n, "peak_fp32_flop_per_s");
  r.peak_tensor_flop_per_s = number(n, "peak_tensor_flop_per_s");
  r.peak_dram_bytes_per_s = number(n, "peak_dram_bytes_per_s");
  r.ridge_flop_per_byte = number(n, "ridge_flop_per_byte");
  r.compute_pct_of_peak = number(n, "compute_pct_of_peak");
  r.dram_pct_of_peak = number(n, "dram_pct_of_peak");
  r.bound_by = text(n, "bound_by");
  r.headroom = number(n, "headroom_factor");
  r.notes = texts(n, "notes");
  return r;
}

memory_access memory_from(const json& n) {
  memory_access m;
  m.load_bytes_per_sector = number(n, "load_bytes_per_sector");
  m.store_bytes_per_sector = number(n, "store_bytes_per_sector");
  m.load_sectors_per_request = number(n, "load_sectors_per_request");
  m.shared_load_conflict_pct = number(n, "shared_load_conflict_pct");
  m.shared_store_conflict_pct = number(n, "shared_store_conflict_pct");
  m.l1_hit_pct = number(n, "l1_hit_pct");
  m.l2_hit_pct = number(n, "l2_hit_pct");
  return m;
}

kernel_diagnosis kernel_from(const json& k, const std::string& where) {
  kernel_diagnosis d;
  d.launch_id = text(k, "launch_id");
  d.kernel_name = text(k, "kernel_name");
  const std::string cls = text(k, "class");
  const auto parsed = parse_bottleneck(cls);
  if (!parsed) throw error(fmt::format("{}: unknown bottleneck class \"{}\": analyse the profile again", where, cls));
  d.verdict.cls = *parsed;
  d.verdict.at_hardware_limit = k.at("at_hardware_limit").get<bool>();
  d.verdict.reason = text(k, "reason");
  for (const json& e : k.at("evidence")) {
    d.verdict.numbers.push_back({text(e, "name"), e.at("value").get<double>(), text(e, "unit"), text(e, "metric")});
  }
  d.launch = launch_from(k.at("launch"));
  d.sol = sol_from(k.at("speed_of_light"));
  const json& occ = k.at("occupancy");
  d.occ = {number(occ, "theoretical_pct"), number(occ, "achieved_pct"), number(occ, "limit_blocks_per_sm"),
           texts(occ, "limiters")};
  d.issue = issue_from(k.at("issue"));
  d.roof = roofline_from(k.at("roofline"));
  d.memory = memory_from(k.at("memory_access"));
  const json& tc = k.at("tensor_cores");
  d.tensor = {number(tc, "pipe_pct"), number(tc, "wgmma_issue_pct"), number(tc, "hmma_cycles_pct"),
              text(tc, "instructions")};
  const json& cc = k.at("ncu_cross_check");
  d.cross_check = {cc.at("available").get<bool>(), text(cc, "ncu_says"), text(cc, "ncu_class"), cc.at("agrees").get<bool>()};
  for (const json& a : k.at("ncu_advice")) {
    d.ncu_advice.push_back({d.launch_id, d.kernel_name, text(a, "section"), text(a, "rule"), text(a, "type"),
                            text(a, "message"), text(a, "speedup_type"), number(a, "estimated_speedup_pct")});
  }
  for (const json& r : k.at("recommendations")) {
    d.recommendations.push_back({text(r, "id"), text(r, "title"), text(r, "backend"), r.at("score").get<double>(),
                                 text(r, "why"), texts(r, "tags")});
  }
  if (k.contains("hottest_source_lines")) {
    for (const json& h : k.at("hottest_source_lines")) {
      d.hottest_source_lines.push_back({text(h, "file"), line_number(h, where), h.at("share_pct").get<double>(),
                                        h.at("stall_samples").get<double>(), text(h, "top_stall"), text(h, "text")});
    }
  }
  d.notes = texts(k, "notes");
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
    analysis a;
    a.report = text(document, "report");
    a.details_file = text(document, "details_file");
    a.details_format = text(document, "details_format");
    a.backend = text(document, "backend");
    a.backend_how = text(document, "backend_how");
    a.base_units = document.at("base_units").get<bool>();
    a.source_file = document.value("source_file", "");
    for (const json& k : document.at("kernels")) a.kernels.push_back(kernel_from(k, where));
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
