#pragma once
// The diagnosis rules, one per file. Each reads the launch's metrics (and what earlier rules
// found) and fills its part of the diagnosis; analyzer.cpp runs them in the order below, since
// classification needs the others' numbers.

#include <vector>

#include "analyze/diagnosis.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"

namespace kopt::analyze::rules {

void read_launch_shape(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_speed_of_light(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_occupancy(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_issue_and_stalls(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_busiest_pipe(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_roofline(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_memory_access(const profile::kernel_launch& k, kernel_diagnosis& d);
void read_tensor_cores(const profile::kernel_launch& k, kernel_diagnosis& d);
void classify(kernel_diagnosis& d);
// Attaches ncu's rule results for this launch and checks kopt's class against SOLBottleneck.
void attach_ncu_advice(const std::vector<profile::rule_advice>& advice, kernel_diagnosis& d);
// Attaches the source lines with the most stall samples of the launch's function, when the
// source page has counters for it.
void attach_hottest_source_lines(const std::vector<profile::source_function>& functions, kernel_diagnosis& d);

}  // namespace kopt::analyze::rules
