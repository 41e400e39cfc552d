// ncu's details page: rule rows among metric rows of another width, and the printed form.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/files.h"
#include "profile/rule_advice.h"

namespace kopt::profile {
namespace {

std::string fixture(const std::string& name) {
  return read_text_file(std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / name);
}

constexpr const char* header =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Body Item Label\",\"Metric Name\",\"Metric Unit\","
    "\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n";

TEST(DetailsCsv, ReadsRuleRowsAndSkipsMetricRowsAndProse) {
  const std::string text = std::string("==PROF== Connected\n") + header +
      "\"0\",\"1\",\"kopt\",\"h\",\"k(int *, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"SpeedOfLight\",\"\",\"Duration\",\"us\",\"1.50\",\n"
      "some prose, with a comma\n"
      "\"0\",\"1\",\"kopt\",\"h\",\"k(int *, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Occupancy\",\"\",\"\",\"\",\"\",\"AchievedOccupancy\",\"OPT\",\"The difference   between  achieved and theoretical.\",\"local\",\"12.5\"\n";
  const details_report r = parse_details_csv(text);
  EXPECT_EQ(r.format, "csv");
  ASSERT_EQ(r.advice.size(), 1u);
  const rule_advice& a = r.advice[0];
  EXPECT_EQ(a.launch_id, "0");
  EXPECT_EQ(a.rule, "AchievedOccupancy");
  EXPECT_EQ(a.type, "OPT");
  EXPECT_EQ(a.section, "Occupancy");
  EXPECT_EQ(a.speedup_type, "local");
  EXPECT_EQ(a.estimated_speedup_pct, 12.5);
  EXPECT_EQ(a.description, "The difference between achieved and theoretical.");
}

TEST(DetailsCsv, RealExportHasTheSolBottleneckRowOfEachLaunch) {
  const details_report r = parse_details(fixture("h200/histogram_details.csv"));
  EXPECT_EQ(r.format, "csv");
  std::vector<std::string> launches;
  for (const auto& a : r.advice) {
    if (a.rule == "SOLBottleneck") launches.push_back(a.launch_id);
  }
  EXPECT_EQ(launches, (std::vector<std::string>{"0", "1"}));
  const auto it = std::find_if(r.advice.begin(), r.advice.end(), [](const rule_advice& a) {
    return a.rule == "SOLBottleneck" && a.launch_id == "1";
  });
  EXPECT_EQ(it->description.rfind("This kernel grid is too small to fill the available resources on this device, "
                                  "resulting in only 1.0 full waves",
                                  0),
            0u);
}

TEST(DetailsText, ReadsRuleMessagesOfThePrintedPage) {
  const details_report r = parse_details(fixture("torch_reduce_full_details.txt"));
  EXPECT_EQ(r.format, "text");
  ASSERT_FALSE(r.advice.empty());
  const rule_advice& first = r.advice[0];
  EXPECT_EQ(first.launch_id, "0");
  EXPECT_EQ(first.section, "GPU Speed Of Light Throughput");
  EXPECT_EQ(first.type, "OPT");
  EXPECT_TRUE(first.rule.empty());
  EXPECT_EQ(first.description,
            "This kernel grid is too small to fill the available resources on this device, resulting in only 1.0 full "
            "waves across all SMs. Look at Launch Statistics for more details.");
  const auto stall = std::find_if(r.advice.begin(), r.advice.end(), [](const rule_advice& a) {
    return a.estimated_speedup_pct == 40.47;
  });
  ASSERT_NE(stall, r.advice.end());
  EXPECT_EQ(stall->section, "Warp State Statistics");
  EXPECT_EQ(stall->speedup_type, "global");
  EXPECT_EQ(stall->description.rfind("On average, each warp of this workload spends 13.0 cycles", 0), 0u);
  const auto local = std::find_if(r.advice.begin(), r.advice.end(), [](const rule_advice& a) {
    return a.speedup_type == "local";
  });
  ASSERT_NE(local, r.advice.end());
  EXPECT_EQ(local->estimated_speedup_pct, 56.88);
}

TEST(DetailsText, KernelsSectionsAndSpeedupsAreReadAsPrinted) {
  const std::string page =
      "[860] kopt@127.0.0.1\n"
      "  void reduce<(int)4>(float *, Params (x), int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0  \n"
      "    Section: Warp State Statistics   \n"
      "    WRN   Est. Local Speedup: 12.5%\n"
      "    OPT   The kernel   \n"
      "          waits.\n"
      "    INF\n"
      "  not_a_kernel (1, 1)x(1, 1, 1), CC 9.0\n"
      "    ERR   Est. Speedup: 3%\n";
  const details_report r = parse_details_text(page);
  ASSERT_EQ(r.advice.size(), 3u);
  EXPECT_EQ(r.advice[0].kernel_name, "void reduce<(int)4>(float *, Params (x), int)");
  EXPECT_EQ(r.advice[0].section, "Warp State Statistics");
  EXPECT_EQ(r.advice[0].speedup_type, "local");
  EXPECT_EQ(r.advice[0].estimated_speedup_pct, 12.5);
  EXPECT_EQ(r.advice[1].type, "OPT");
  EXPECT_EQ(r.advice[1].description, "The kernel waits.");
  // A line that does not read as a kernel's leaves the kernel as it was.
  EXPECT_EQ(r.advice[2].launch_id, "0");
  EXPECT_EQ(r.advice[2].speedup_type, "global");
  EXPECT_EQ(r.advice[2].estimated_speedup_pct, 3);
}

TEST(DetailsText, LinesOfAnyLengthAreReadWithoutRecursion) {
  std::string words;
  while (words.size() < 300000) words += "word ";
  const std::string page = "  k (1, 1, 1)x(1, 1, 1), CC 9.0\n    OPT   " + words + "\n          " + words + "\n" +
                           std::string(300000, '(') + "\n  " + std::string(300000, ' ') + "x\n";
  const details_report r = parse_details_text(page);
  ASSERT_EQ(r.advice.size(), 1u);
  EXPECT_EQ(r.advice[0].kernel_name, "k");
  EXPECT_EQ(r.advice[0].description.size(), 2 * (words.size() - 1) + 1);
}

}  // namespace
}  // namespace kopt::profile
