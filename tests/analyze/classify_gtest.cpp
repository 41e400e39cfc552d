// The class order and thresholds on hand-made metric sets: first match wins, 60 % / 80 % /
// 10 points as in NCU.md, and the memory unit fallback when no breakdown metric matches.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "analyze/analyzer.h"

namespace kopt::analyze {
namespace {

profile::raw_report launch_with(const std::map<std::string, double>& numbers) {
  profile::kernel_launch k = profile::kernel_launch::with_numbers(numbers);
  k.id = "0";
  k.kernel_name = "k(float *)";
  profile::raw_report r;
  r.launches.push_back(k);
  return r;
}

kernel_diagnosis diagnose_one(std::map<std::string, double> numbers) {
  // Defaults: a full GPU, full occupancy.
  numbers.emplace("launch__waves_per_multiprocessor", 4);
  numbers.emplace("launch__grid_size", 1024);
  numbers.emplace("device__attribute_multiprocessor_count", 132);
  numbers.emplace("sm__maximum_warps_per_active_cycle_pct", 100);
  numbers.emplace("sm__warps_active.avg.pct_of_peak_sustained_active", 95);
  return diagnose(launch_with(numbers), std::nullopt, "cuda").at(0);
}

constexpr const char* sm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char* mem = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";

TEST(Classify, LaunchBeforeOccupancyBeforeLatency) {
  EXPECT_EQ(diagnose_one({{sm, 20}, {mem, 30}, {"launch__waves_per_multiprocessor", 0.5}}).verdict.cls, bottleneck::launch);
  EXPECT_EQ(diagnose_one({{sm, 20}, {mem, 30}, {"launch__grid_size", 100}}).verdict.cls, bottleneck::launch);
  const auto occ = diagnose_one({{sm, 20}, {mem, 30}, {"sm__maximum_warps_per_active_cycle_pct", 50},
                                 {"launch__occupancy_limit_shared_mem", 2}, {"launch__occupancy_limit_warps", 8}});
  EXPECT_EQ(occ.verdict.cls, bottleneck::occupancy);
  EXPECT_EQ(occ.occ.limiters, std::vector<std::string>{"shared_mem"});
  EXPECT_EQ(diagnose_one({{sm, 20}, {mem, 30}}).verdict.cls, bottleneck::latency);
}

TEST(Classify, AchievedOccupancyMoreThanTenPointsUnderTheoretical) {
  EXPECT_EQ(diagnose_one({{sm, 20}, {mem, 30}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 90.5}}).verdict.cls,
            bottleneck::latency);
  EXPECT_EQ(diagnose_one({{sm, 20}, {mem, 30}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 89}}).verdict.cls,
            bottleneck::occupancy);
}

TEST(Classify, LatencyNamesTheTopStalls) {
  const auto d = diagnose_one({{sm, 20}, {mem, 30}, {"smsp__average_warp_latency_per_inst_issued.ratio", 20},
                               {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 12},
                               {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", 5}});
  EXPECT_EQ(d.verdict.cls, bottleneck::latency);
  ASSERT_EQ(d.issue.stalls.size(), 2u);
  EXPECT_EQ(d.issue.stalls[0].reason, "long_scoreboard");
  EXPECT_DOUBLE_EQ(d.issue.stalls[0].share_pct, 60.0);
  EXPECT_NE(d.verdict.reason.find("long_scoreboard 60 %, barrier 25 %"), std::string::npos) << d.verdict.reason;
}

TEST(Classify, MemoryUnitFromTheBreakdownNotTheLargestUnit) {
  const auto d = diagnose_one({{sm, 40}, {mem, 70}, {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 78},
                               {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 70},
                               {"dram__cycles_active.avg.pct_of_peak_sustained_elapsed", 70}});
  EXPECT_EQ(d.verdict.cls, bottleneck::dram);
  EXPECT_EQ(d.sol.memory_unit_metric, "dram__cycles_active.avg.pct_of_peak_sustained_elapsed");
  for (const auto& note : d.notes) EXPECT_EQ(note.find("memory unit"), std::string::npos) << note;
}

TEST(Classify, MemoryUnitFallbackSaysSo) {
  const auto d = diagnose_one({{sm, 40}, {mem, 70}, {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 68},
                               {"l1tex__throughput.avg.pct_of_peak_sustained_elapsed", 30}});
  EXPECT_EQ(d.verdict.cls, bottleneck::l2);
  EXPECT_NE(d.sol.memory_unit_how.find("closest"), std::string::npos);
  const auto said = std::find_if(d.notes.begin(), d.notes.end(), [](const std::string& n) {
    return n.find("breakdown:gpu__compute_memory_throughput") != std::string::npos;
  });
  EXPECT_NE(said, d.notes.end());
}

TEST(Classify, LeadsLimitsAndBalance) {
  EXPECT_EQ(diagnose_one({{sm, 75}, {mem, 64}}).verdict.cls, bottleneck::compute);  // 11 points ahead
  EXPECT_EQ(diagnose_one({{sm, 70}, {mem, 64}}).verdict.cls, bottleneck::mixed);
  const auto both_high = diagnose_one({{sm, 85}, {mem, 82}});
  EXPECT_EQ(both_high.verdict.cls, bottleneck::compute);
  EXPECT_TRUE(both_high.verdict.at_hardware_limit);
  const auto mem_limit = diagnose_one({{sm, 79}, {mem, 81}, {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 81}});
  EXPECT_EQ(mem_limit.verdict.cls, bottleneck::dram);
  EXPECT_TRUE(mem_limit.verdict.at_hardware_limit);
  EXPECT_FALSE(diagnose_one({{sm, 75}, {mem, 60}}).verdict.at_hardware_limit);
}

TEST(Classify, MissingSpeedOfLightIsSaid) {
  const auto d = diagnose_one({});
  EXPECT_EQ(d.verdict.cls, bottleneck::mixed);
  EXPECT_NE(d.verdict.reason.find("missing"), std::string::npos);
}

}  // namespace
}  // namespace kopt::analyze
