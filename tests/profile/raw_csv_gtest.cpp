// The raw page: columns by name, units row, one launch per row, real exports of both kinds.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "profile/raw_csv.h"

namespace kopt::profile {
namespace {

std::string fixture(const std::string& name) {
  return read_text_file(std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / name);
}

// Two launches, NVTX columns after Host Name, metric columns in an unusual order, auto-scaled
// units, a kernel name with commas, and a prose line ncu printed before the header.
constexpr const char* hand_made =
    "==PROF== Disconnected from process 42\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg\","
    "\"NVTX Range\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
    "\"launch__grid_size\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\",\"sm__cycles_elapsed.avg.per_second\",\"launch__func_cache_config\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"us\",\"Mbyte\",\"Ghz\",\"\"\n"
    "\"0\",\"7\",\"kopt\",\"host\",\"roi\",\"outer/roi\",\"void k<float, 4>(const float *, int)\",\"1\",\"7\",\"(256, 1, 1)\","
    "\"(4096, 1, 1)\",\"0\",\"9.0\",\"4,096\",\"12.50\",\"1,024.5\",\"1.98\",\"CachePreferNone\"\n"
    "\"1\",\"7\",\"kopt\",\"host\",\"roi\",\"outer/roi\",\"zero_kernel(int *, int)\",\"1\",\"7\",\"(32, 1, 1)\","
    "\"(1, 1, 1)\",\"0\",\"9.0\",\"1\",\"1.25\",\"0\",\"1.50\",\"CachePreferNone\"\n";

TEST(RawCsv, LaunchesShareOneColumnTableAndKeepTheirOwnNumbers) {
  std::vector<std::size_t> progress;
  const raw_report r = parse_raw_csv(hand_made, "hand.csv", [&](std::size_t n) { progress.push_back(n); });
  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_EQ(r.launches[0].columns, r.launches[1].columns) << "names and units are kept once per report";
  EXPECT_DOUBLE_EQ(*r.launches[1].number("gpu__time_duration.sum"), 1.25e-6);
  EXPECT_TRUE(progress.empty()) << "progress is told every 256 launches";
  std::vector<std::string> names;
  r.launches[0].for_each_number([&](const std::string& name, double) { names.push_back(name); });
  // In name order, text cells (launch__func_cache_config) left out.
  EXPECT_EQ(names, (std::vector<std::string>{"dram__bytes_read.sum", "gpu__time_duration.sum", "launch__grid_size",
                                             "sm__cycles_elapsed.avg.per_second"}));
}

TEST(RawCsv, ReadsLaunchesByColumnName) {
  const raw_report r = parse_raw_csv(hand_made, "hand.csv");
  ASSERT_EQ(r.launches.size(), 2u);
  const kernel_launch& k = r.launches[0];
  EXPECT_EQ(k.id, "0");
  EXPECT_EQ(k.kernel_name, "void k<float, 4>(const float *, int)");
  EXPECT_EQ(k.block_size, "(256, 1, 1)");
  EXPECT_EQ(k.grid_size, "(4096, 1, 1)");
  EXPECT_EQ(k.compute_capability, "9.0");
  EXPECT_EQ(k.attributes.at("NVTX Range"), "outer/roi");
  EXPECT_EQ(k.number("launch__grid_size"), 4096.0);
  EXPECT_EQ(k.text("launch__func_cache_config"), "CachePreferNone");
  EXPECT_FALSE(k.number("launch__func_cache_config"));
  EXPECT_FALSE(k.has("sm__throughput.avg.pct_of_peak_sustained_elapsed"));
  EXPECT_EQ(r.launches[1].kernel_name, "zero_kernel(int *, int)");
}

TEST(RawCsv, ConvertsAutoScaledValuesThroughTheUnitsRow) {
  const raw_report r = parse_raw_csv(hand_made, "hand.csv");
  EXPECT_FALSE(r.base_units);
  const kernel_launch& k = r.launches[0];
  EXPECT_DOUBLE_EQ(*k.number("gpu__time_duration.sum"), 12.5e-6);     // [s]
  EXPECT_DOUBLE_EQ(*k.number("dram__bytes_read.sum"), 1024.5e6);       // [byte]
  EXPECT_DOUBLE_EQ(*k.number("sm__cycles_elapsed.avg.per_second"), 1.98e9);  // [Hz]
  EXPECT_EQ(k.unit("gpu__time_duration.sum"), "us");
}

TEST(RawCsv, AutoScaledAndBaseExportsGiveBaseUnits) {
  const raw_report scaled = parse_raw_csv(fixture("torch_reduce_full_raw.csv"), "torch");
  ASSERT_EQ(scaled.launches.size(), 1u);
  EXPECT_FALSE(scaled.base_units);
  const kernel_launch& t = scaled.launches[0];
  EXPECT_EQ(t.kernel_name.rfind("void reduce_kernel<512, 1, ReduceOp<float, func_wrapper_t<float, MaxNanFunctor<float>>", 0), 0u);
  EXPECT_DOUBLE_EQ(*t.number("gpu__time_duration.sum"), 12.224e-6);
  EXPECT_DOUBLE_EQ(*t.number("dram__bytes_read.sum"), 16841728.0);
  EXPECT_DOUBLE_EQ(*t.number("dram__bytes.sum.peak_sustained"), 1504.0);  // exported as 1.504 Kbyte/cycle
  EXPECT_DOUBLE_EQ(*t.number("device__attribute_l2_cache_size"), 62914560.0);

  const raw_report base = parse_raw_csv(fixture("h200/cutlass_gemm_raw.csv"), "cutlass");
  EXPECT_TRUE(base.base_units);
  EXPECT_DOUBLE_EQ(*base.launches[0].number("gpu__time_duration.sum"), 178336e-9);
  EXPECT_DOUBLE_EQ(*base.launches[0].number("sm__ops_path_tensor_src_bf16_dst_fp32.sum"), 137438953472.0);
}

TEST(RawCsv, OneRowPerLaunchOfASolveCall) {
  const raw_report r = parse_raw_csv(fixture("h200/histogram_raw.csv"), "histogram");
  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_EQ(r.launches[0].kernel_name, "zero_kernel(int *, int)");
  EXPECT_EQ(r.launches[1].kernel_name, "histogram_shared_kernel(const int *, int *, int, int)");
  EXPECT_EQ(r.launches[1].id, "1");
}

TEST(RawCsv, RejectsWhatIsNotAnExport) {
  try {
    parse_raw_csv("name,value\nx,1\n", "table.csv");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.headline()).rfind("table.csv is not an Nsight Compute raw CSV export", 0), 0u) << e.headline();
  }
  EXPECT_THROW(parse_raw_csv("", "empty.csv"), error);
}

TEST(RawCsv, RejectsAnExportWithoutLaunches) {
  try {
    parse_raw_csv("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"ns\"\n", "none.csv");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.headline()).rfind("none.csv holds no profiled kernel launch", 0), 0u) << e.headline();
  }
}

TEST(RawCsv, TheDetailsPageIsNamedAsSuch) {
  try {
    parse_raw_csv(fixture("h200/vector_add_details.csv"), "details.csv");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.headline()).rfind("details.csv is Nsight Compute's details page (a row per metric), not "
                                              "its raw page",
                                              0),
              0u)
        << e.headline();
  }
}

TEST(RawCsv, ARowCutShortIsNamedByItsLineNotSkipped) {
  const std::string text = hand_made;
  // Cut inside the last row's kernel name (an open quote), and after a field's comma (an empty field follows).
  const std::string cut_in_quote = text.substr(0, text.find("zero_kernel(int *") + 6) + "\n";
  const std::string cut_at_comma = text.substr(0, text.find("\"(32, 1, 1)\"")) + "\n";
  for (const auto& [cut, what] : {std::pair{cut_in_quote, std::string("an unterminated quote")},
                                  std::pair{cut_at_comma, std::string("10 fields")}}) {
    try {
      parse_raw_csv(cut, "cut.csv");
      FAIL() << "no error for " << what;
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.headline()),
                "cut.csv: line 5 is a malformed row (" + what +
                    ", where the header has 18 fields): the file was cut short or edited; export it again with "
                    "`ncu -i REPORT.ncu-rep --csv --page raw --print-units base`");
    }
  }
}

}  // namespace
}  // namespace kopt::profile
