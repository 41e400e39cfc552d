#include "analyze/analysis_json.h"

namespace kopt::analyze {
namespace {

json number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json evidence_json(const std::vector<evidence>& numbers) {
  json out = json::array();
  for (const auto& e : numbers) out.push_back({{"name", e.name}, {"value", e.value}, {"unit", e.unit}, {"metric", e.metric}});
  return out;
}

json kernel_json(const kernel_diagnosis& d) {
  const auto& l = d.launch;
  const auto& s = d.sol;
  const auto& r = d.roof;
  const auto& m = d.memory;
  json stalls = json::array();
  for (const auto& st : d.issue.stalls) {
    stalls.push_back({{"reason", st.reason}, {"cycles_per_issue", st.cycles_per_issue}, {"share_pct", st.share_pct}});
  }
  json advice = json::array();
  for (const auto& a : d.ncu_advice) {
    advice.push_back({{"rule", a.rule}, {"type", a.type}, {"section", a.section},
                      {"estimated_speedup_pct", number(a.estimated_speedup_pct)},
                      {"speedup_type", a.speedup_type}, {"message", a.description}});
  }
  json recs = json::array();
  for (const auto& rec : d.recommendations) {
    recs.push_back({{"id", rec.id}, {"title", rec.title}, {"backend", rec.backend}, {"score", rec.score},
                    {"why", rec.why}, {"tags", rec.tags}});
  }
  json hot_lines = json::array();
  for (const auto& h : d.hottest_source_lines) {
    hot_lines.push_back({{"file", h.file}, {"line", h.line}, {"share_pct", h.share_pct},
                         {"stall_samples", h.stall_samples}, {"top_stall", h.top_stall}, {"text", h.text}});
  }
  return {
      {"launch_id", d.launch_id},
      {"kernel_name", d.kernel_name},
      {"class", std::string(to_string(d.verdict.cls))},
      {"at_hardware_limit", d.verdict.at_hardware_limit},
      {"reason", d.verdict.reason},
      {"evidence", evidence_json(d.verdict.numbers)},
      {"launch", {{"block_size", l.block_size}, {"grid_size", l.grid_size},
                  {"threads_per_block", number(l.threads_per_block)}, {"blocks", number(l.blocks)},
                  {"waves_per_sm", number(l.waves_per_sm)}, {"sm_count", number(l.sm_count)},
                  {"registers_per_thread", number(l.registers_per_thread)},
                  {"shared_mem_per_block_bytes", number(l.shared_mem_per_block_bytes)},
                  {"duration_ns", number(l.duration_ns)}, {"sm_clock_hz", number(l.sm_clock_hz)},
                  {"dram_clock_hz", number(l.dram_clock_hz)}}},
      {"speed_of_light", {{"sm_pct", number(s.sm_pct)}, {"memory_pct", number(s.memory_pct)},
                          {"dram_pct", number(s.dram_pct)}, {"l2_pct", number(s.l2_pct)}, {"l1_pct", number(s.l1_pct)},
                          {"memory_unit", s.memory_unit}, {"memory_unit_metric", s.memory_unit_metric},
                          {"memory_unit_how", s.memory_unit_how}}},
      {"occupancy", {{"theoretical_pct", number(d.occ.theoretical_pct)}, {"achieved_pct", number(d.occ.achieved_pct)},
                     {"limit_blocks_per_sm", number(d.occ.limit_blocks)}, {"limiters", d.occ.limiters}}},
      {"issue", {{"issue_active_per_cycle", number(d.issue.issue_active_per_cycle)},
                 {"eligible_warps_per_cycle", number(d.issue.eligible_warps_per_cycle)},
                 {"cycles_per_issue", number(d.issue.cycles_per_issue)},
                 {"busiest_pipe", d.issue.busiest_pipe}, {"busiest_pipe_pct", number(d.issue.busiest_pipe_pct)},
                 {"stalls", stalls}}},
      {"roofline", {{"fp32_flop", number(r.fp32_flop)}, {"fp64_flop", number(r.fp64_flop)},
                    {"fp16_flop", number(r.fp16_flop)}, {"tensor_flop", number(r.tensor_flop)},
                    {"tensor_type", r.tensor_type}, {"dram_bytes", number(r.dram_bytes)},
                    {"scalar_flop_per_s", number(r.scalar_flop_per_s)}, {"tensor_flop_per_s", number(r.tensor_flop_per_s)},
                    {"dram_bytes_per_s", number(r.dram_bytes_per_s)},
                    {"arithmetic_intensity_flop_per_byte", number(r.arithmetic_intensity)},
                    {"peak_fp32_flop_per_s", number(r.peak_fp32_flop_per_s)},
                    {"peak_tensor_flop_per_s", number(r.peak_tensor_flop_per_s)},
                    {"peak_dram_bytes_per_s", number(r.peak_dram_bytes_per_s)},
                    {"ridge_flop_per_byte", number(r.ridge_flop_per_byte)},
                    {"compute_pct_of_peak", number(r.compute_pct_of_peak)},
                    {"dram_pct_of_peak", number(r.dram_pct_of_peak)}, {"bound_by", r.bound_by},
                    {"headroom_factor", number(r.headroom)}, {"notes", r.notes}}},
      {"memory_access", {{"load_bytes_per_sector", number(m.load_bytes_per_sector)},
                         {"store_bytes_per_sector", number(m.store_bytes_per_sector)},
                         {"load_sectors_per_request", number(m.load_sectors_per_request)},
                         {"shared_load_conflict_pct", number(m.shared_load_conflict_pct)},
                         {"shared_store_conflict_pct", number(m.shared_store_conflict_pct)},
                         {"l1_hit_pct", number(m.l1_hit_pct)}, {"l2_hit_pct", number(m.l2_hit_pct)}}},
      {"tensor_cores", {{"instructions", d.tensor.instructions}, {"pipe_pct", number(d.tensor.pipe_pct)},
                        {"wgmma_issue_pct", number(d.tensor.gmma_pct)}, {"hmma_cycles_pct", number(d.tensor.hmma_pct)}}},
      {"ncu_cross_check", {{"available", d.cross_check.available}, {"ncu_class", d.cross_check.ncu_class},
                           {"agrees", d.cross_check.agrees}, {"ncu_says", d.cross_check.ncu_says}}},
      {"ncu_advice", advice},
      {"recommendations", recs},
      {"hottest_source_lines", hot_lines},
      {"notes", d.notes},
  };
}

}  // namespace

json to_json(const analysis& a) {
  json kernels = json::array();
  for (const auto& k : a.kernels) kernels.push_back(kernel_json(k));
  return with_schema("analysis", analysis_schema_version,
                     {{"report", a.report},
                      {"details_file", a.details_file},
                      {"details_format", a.details_format},
                      {"backend", a.backend},
                      {"backend_how", a.backend_how},
                      {"base_units", a.base_units},
                      {"source_file", a.source_file},
                      {"kernels", kernels}});
}

}  // namespace kopt::analyze
