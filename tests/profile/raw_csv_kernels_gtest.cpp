#include "profile/raw_csv_kernels.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::profile {
namespace {

// The shape of `ncu -i R --csv --page raw --print-units base`: header, units row, one row per
// launch; every field quoted, names with commas, numbers with thousands separators.
constexpr const char* two_launches =
    R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed","gpu__time_duration.sum","sm__throughput.avg.pct_of_peak_sustained_elapsed")csv"
    "\n"
    R"csv("","","","","","","","","","","","byte","%","ns","%")csv"
    "\n"
    R"csv("0","4242","kopt","127.0.0.1","row_max(const float *, float *, int, int)","1","7","(128, 1, 1)","(32, 1, 1)","0","9.0","16,777,216","45.61","1,234,567","12.5")csv"
    "\n"
    R"csv("1","4242","kopt","127.0.0.1","void scale<float, 4>(const T1 *, T1 *, int)","1","7","(256, 1, 1)","(4096, 1, 1)","0","9.0","0","88.2","5,312","")csv"
    "\n";

TEST(ReadProfiledKernels, OneEntryPerLaunchRow) {
  const auto kernels = read_profiled_kernels(two_launches);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].id, "0");
  EXPECT_EQ(kernels[0].name, "row_max(const float *, float *, int, int)");
  EXPECT_EQ(kernels[0].grid, "(32, 1, 1)");
  EXPECT_EQ(kernels[0].block, "(128, 1, 1)");
  EXPECT_DOUBLE_EQ(*kernels[0].duration_ns, 1234567.0);
  EXPECT_DOUBLE_EQ(*kernels[0].sm_throughput_pct, 12.5);
  EXPECT_DOUBLE_EQ(*kernels[0].memory_throughput_pct, 45.61);
  EXPECT_EQ(kernels[1].name, "void scale<float, 4>(const T1 *, T1 *, int)");
  EXPECT_DOUBLE_EQ(*kernels[1].duration_ns, 5312.0);
  EXPECT_FALSE(kernels[1].sm_throughput_pct.has_value());
}

TEST(ReadProfiledKernels, SkipsNcuMessagesAndFindsColumnsByName) {
  // --nvtx puts two columns after Host Name; positions move, names do not.
  const std::string csv =
      "==WARNING== something ncu wanted to say\n"
      R"csv("ID","Process ID","Process Name","Host Name","thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg","Range Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","gpu__time_duration.sum")csv"
      "\n"
      R"csv("","","","","","","","","","","","","","ns")csv"
      "\n"
      R"csv("0","1","kopt","h","","roi","k(int)","1","7","(64, 1, 1)","(2, 1, 1)","0","9.0","2,000")csv"
      "\n";
  const auto kernels = read_profiled_kernels(csv);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k(int)");
  EXPECT_EQ(kernels[0].grid, "(2, 1, 1)");
  EXPECT_DOUBLE_EQ(*kernels[0].duration_ns, 2000.0);
  EXPECT_FALSE(kernels[0].memory_throughput_pct.has_value());
}

TEST(ReadProfiledKernels, NoHeaderOrNoRowsMeansNoLaunches) {
  EXPECT_TRUE(read_profiled_kernels("").empty());
  EXPECT_TRUE(read_profiled_kernels("==WARNING== No kernels were profiled.\n").empty());
  EXPECT_TRUE(read_profiled_kernels(R"csv("ID","Kernel Name")csv"
                                    "\n"
                                    R"csv("","")csv"
                                    "\n")
                  .empty());
}

TEST(ReadProfiledKernels, ARowCutShortIsAnErrorNotALaunchLeftOut) {
  std::string cut(two_launches);
  cut.resize(cut.rfind("\"5,312\""));  // the last row ends mid-way, as a file written half
  try {
    read_profiled_kernels(cut, "run/ncu_raw.csv");
    FAIL() << "a malformed row was accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("run/ncu_raw.csv: line 4 is a malformed row"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kopt::profile
