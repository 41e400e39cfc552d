#include "analyze/analyzer.h"

#include "analyze/recommend.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze {

std::vector<kernel_diagnosis> diagnose(const profile::raw_report& raw,
                                       const std::optional<profile::details_report>& details,
                                       const std::string& backend,
                                       const std::vector<profile::source_function>& source) {
  std::vector<kernel_diagnosis> out;
  for (const auto& launch : raw.launches) {
    kernel_diagnosis d;
    d.launch_id = launch.id;
    d.kernel_name = launch.kernel_name;
    rules::read_launch_shape(launch, d);
    rules::read_speed_of_light(launch, d);
    rules::read_occupancy(launch, d);
    rules::read_issue_and_stalls(launch, d);
    rules::read_busiest_pipe(launch, d);
    rules::read_roofline(launch, d);
    rules::read_memory_access(launch, d);
    rules::read_tensor_cores(launch, d);
    rules::classify(d);
    if (details) rules::attach_ncu_advice(details->advice, d);
    d.recommendations = recommend(d, backend);
    rules::attach_hottest_source_lines(source, d);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kopt::analyze
