#include "profile/profile_record.h"

#include <gtest/gtest.h>

namespace kopt::profile {
namespace {

TEST(ProfileDocument, CarriesSchemaCommandFilesAndKernels) {
  profile_record r;
  r.ncu_path = "/usr/local/cuda/bin/ncu";
  r.ncu_version = "2025.3.1.0";
  r.ncu_argv = {"/usr/local/cuda/bin/ncu", "--set", "full"};
  r.ncu_command = "/usr/local/cuda/bin/ncu --set full kopt harness JOB.json RESULT.json";
  r.capture.launch_count = 1;
  r.profile_calls = 1;
  r.warmup = 3;
  r.files = {"full.ncu-rep", "ncu_raw.csv"};
  r.kernels = {{.id = "0", .name = "k(int)", .grid = "(2, 1, 1)", .block = "(64, 1, 1)", .duration_ns = 2000.0}};
  r.capture_seconds = 12.5;
  r.wall_seconds = 14.0;
  const json d = profile_document(r);
  EXPECT_EQ(d.begin().key(), "schema");
  EXPECT_EQ(d["schema"], "kopt.profile/v1");
  EXPECT_EQ(d["status"], "ok");
  EXPECT_EQ(d["ncu"]["version"], "2025.3.1.0");
  EXPECT_EQ(d["ncu_command"], r.ncu_command);
  EXPECT_EQ(d["selection"]["set"], "full");
  EXPECT_EQ(d["selection"]["launch_count"], 1);
  EXPECT_TRUE(d["selection"]["launch_skip"].is_null());
  EXPECT_EQ(d["files"], json({"full.ncu-rep", "ncu_raw.csv"}));
  EXPECT_TRUE(d["source_csv_problem"].is_null());
  EXPECT_EQ(d["kernel_count"], 1);
  EXPECT_EQ(d["kernels"][0]["name"], "k(int)");
  EXPECT_EQ(d["kernels"][0]["grid"], "(2, 1, 1)");
  EXPECT_EQ(d["kernels"][0]["duration_ns"], 2000.0);
  EXPECT_TRUE(d["kernels"][0]["sm_throughput_pct"].is_null());
  EXPECT_EQ(d["wall_seconds"], 14.0);
}

TEST(KernelSummaryLine, ShowsWhatIsKnown) {
  profiled_kernel k{.id = "0", .name = "k(int)", .grid = "(32, 1, 1)", .block = "(128, 1, 1)"};
  EXPECT_EQ(kernel_summary_line(k), "[0] k(int)  grid (32, 1, 1)  block (128, 1, 1)");
  k.duration_ns = 13250.0;
  k.sm_throughput_pct = 12.34;
  k.memory_throughput_pct = 45.67;
  EXPECT_EQ(kernel_summary_line(k), "[0] k(int)  grid (32, 1, 1)  block (128, 1, 1)  13.25 us  SM 12.3 %  memory 45.7 %");
}

}  // namespace
}  // namespace kopt::profile
