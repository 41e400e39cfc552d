#pragma once
// The keys of analysis.json beside the members they hold, one list per part of the diagnosis,
// in the document's order (core/json_fields.h): the writer (analysis_json.cpp) and the reader
// (analysis_reader.cpp) both walk them. What reading checks beyond a type (the class's name, a
// source line's range) stays with the reader.

#include <tuple>

#include "analyze/analyzer.h"
#include "analyze/diagnosis.h"
#include "core/json_fields.h"

namespace kopt::analyze::analysis_fields {

// The report's keys that every version has; "source_file" (v2) and "kernels" follow them.
inline constexpr std::tuple analysis_keys{json_field{"report", &analysis::report},
                                          json_field{"details_file", &analysis::details_file},
                                          json_field{"details_format", &analysis::details_format},
                                          json_field{"backend", &analysis::backend},
                                          json_field{"backend_how", &analysis::backend_how},
                                          json_field{"base_units", &analysis::base_units}};

inline constexpr std::tuple launch_shape_keys{
    json_field{"block_size", &launch_shape::block_size},
    json_field{"grid_size", &launch_shape::grid_size},
    json_field{"threads_per_block", &launch_shape::threads_per_block},
    json_field{"blocks", &launch_shape::blocks},
    json_field{"waves_per_sm", &launch_shape::waves_per_sm},
    json_field{"sm_count", &launch_shape::sm_count},
    json_field{"registers_per_thread", &launch_shape::registers_per_thread},
    json_field{"shared_mem_per_block_bytes", &launch_shape::shared_mem_per_block_bytes},
    json_field{"duration_ns", &launch_shape::duration_ns},
    json_field{"sm_clock_hz", &launch_shape::sm_clock_hz},
    json_field{"dram_clock_hz", &launch_shape::dram_clock_hz}};

inline constexpr std::tuple speed_of_light_keys{
    json_field{"sm_pct", &speed_of_light::sm_pct},
    json_field{"memory_pct", &speed_of_light::memory_pct},
    json_field{"dram_pct", &speed_of_light::dram_pct},
    json_field{"l2_pct", &speed_of_light::l2_pct},
    json_field{"l1_pct", &speed_of_light::l1_pct},
    json_field{"memory_unit", &speed_of_light::memory_unit},
    json_field{"memory_unit_metric", &speed_of_light::memory_unit_metric},
    json_field{"memory_unit_how", &speed_of_light::memory_unit_how}};

inline constexpr std::tuple occupancy_keys{json_field{"theoretical_pct", &occupancy::theoretical_pct},
                                           json_field{"achieved_pct", &occupancy::achieved_pct},
                                           json_field{"limit_blocks_per_sm", &occupancy::limit_blocks},
                                           json_field{"limiters", &occupancy::limiters}};

// The issue part's numbers; its "stalls" (a list of stall) follow them.
inline constexpr std::tuple issue_stats_keys{
    json_field{"issue_active_per_cycle", &issue_stats::issue_active_per_cycle},
    json_field{"eligible_warps_per_cycle", &issue_stats::eligible_warps_per_cycle},
    json_field{"cycles_per_issue", &issue_stats::cycles_per_issue},
    json_field{"busiest_pipe", &issue_stats::busiest_pipe},
    json_field{"busiest_pipe_pct", &issue_stats::busiest_pipe_pct}};

inline constexpr std::tuple stall_reason_keys{json_field{"reason", &stall_reason::reason},
                                              json_field{"cycles_per_issue", &stall_reason::cycles_per_issue},
                                              json_field{"share_pct", &stall_reason::share_pct}};

inline constexpr std::tuple roofline_keys{
    json_field{"fp32_flop", &roofline::fp32_flop},
    json_field{"fp64_flop", &roofline::fp64_flop},
    json_field{"fp16_flop", &roofline::fp16_flop},
    json_field{"tensor_flop", &roofline::tensor_flop},
    json_field{"tensor_type", &roofline::tensor_type},
    json_field{"dram_bytes", &roofline::dram_bytes},
    json_field{"scalar_flop_per_s", &roofline::scalar_flop_per_s},
    json_field{"tensor_flop_per_s", &roofline::tensor_flop_per_s},
    json_field{"dram_bytes_per_s", &roofline::dram_bytes_per_s},
    json_field{"arithmetic_intensity_flop_per_byte", &roofline::arithmetic_intensity},
    json_field{"peak_fp32_flop_per_s", &roofline::peak_fp32_flop_per_s},
    json_field{"peak_fp64_flop_per_s", &roofline::peak_fp64_flop_per_s},
    json_field{"peak_tensor_flop_per_s", &roofline::peak_tensor_flop_per_s},
    json_field{"peak_dram_bytes_per_s", &roofline::peak_dram_bytes_per_s},
    json_field{"ridge_flop_per_byte", &roofline::ridge_flop_per_byte},
    json_field{"compute_pct_of_peak", &roofline::compute_pct_of_peak},
    json_field{"dram_pct_of_peak", &roofline::dram_pct_of_peak},
    json_field{"bound_by", &roofline::bound_by},
    json_field{"headroom_factor", &roofline::headroom},
    json_field{"notes", &roofline::notes}};

inline constexpr std::tuple memory_access_keys{
    json_field{"load_bytes_per_sector", &memory_access::load_bytes_per_sector},
    json_field{"store_bytes_per_sector", &memory_access::store_bytes_per_sector},
    json_field{"load_sectors_per_request", &memory_access::load_sectors_per_request},
    json_field{"shared_load_conflict_pct", &memory_access::shared_load_conflict_pct},
    json_field{"shared_store_conflict_pct", &memory_access::shared_store_conflict_pct},
    json_field{"l1_hit_pct", &memory_access::l1_hit_pct},
    json_field{"l2_hit_pct", &memory_access::l2_hit_pct}};

inline constexpr std::tuple tensor_core_use_keys{json_field{"instructions", &tensor_core_use::instructions},
                                                 json_field{"pipe_pct", &tensor_core_use::pipe_pct},
                                                 json_field{"wgmma_issue_pct", &tensor_core_use::gmma_pct},
                                                 json_field{"hmma_cycles_pct", &tensor_core_use::hmma_pct}};

inline constexpr std::tuple ncu_cross_check_keys{json_field{"available", &ncu_cross_check::available},
                                                 json_field{"ncu_class", &ncu_cross_check::ncu_class},
                                                 json_field{"agrees", &ncu_cross_check::agrees},
                                                 json_field{"ncu_says", &ncu_cross_check::ncu_says}};

inline constexpr std::tuple evidence_keys{
    json_field{"name", &evidence::name}, json_field{"value", &evidence::value},
    json_field{"unit", &evidence::unit}, json_field{"metric", &evidence::metric}};

// A rule's advice; its launch and kernel are the kernel's own, not written again.
inline constexpr std::tuple rule_advice_keys{
    json_field{"rule", &profile::rule_advice::rule},
    json_field{"type", &profile::rule_advice::type},
    json_field{"section", &profile::rule_advice::section},
    json_field{"estimated_speedup_pct", &profile::rule_advice::estimated_speedup_pct},
    json_field{"speedup_type", &profile::rule_advice::speedup_type},
    json_field{"message", &profile::rule_advice::description}};

inline constexpr std::tuple recommendation_keys{
    json_field{"id", &recommendation::id},           json_field{"title", &recommendation::title},
    json_field{"backend", &recommendation::backend}, json_field{"score", &recommendation::score},
    json_field{"why", &recommendation::why},         json_field{"tags", &recommendation::tags}};

inline constexpr std::tuple hot_source_line_keys{json_field{"file", &hot_source_line::file},
                                                 json_field{"line", &hot_source_line::line},
                                                 json_field{"share_pct", &hot_source_line::share_pct},
                                                 json_field{"stall_samples", &hot_source_line::stall_samples},
                                                 json_field{"top_stall", &hot_source_line::top_stall},
                                                 json_field{"text", &hot_source_line::text}};

}  // namespace kopt::analyze::analysis_fields
