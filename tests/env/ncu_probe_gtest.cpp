#include "env/ncu_probe.h"

#include <gtest/gtest.h>

namespace kopt::env {
namespace {

TEST(NcuProbe, ReadsTheDurationFromCsv) {
  const std::string output =
      "==PROF== Connected to process 1234 (/root/.cache/kopt/preflight/x/kopt_ncu_probe)\n"
      "==PROF== Profiling \"kopt_ncu_probe\" - 0: 0%....50%....100% - 1 pass\n"
      "==PROF== Disconnected from process 1234\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"1234\",\"kopt_ncu_probe\",\"127.0.0.1\",\"kopt_ncu_probe(float *, int)\",\"1\",\"7\",\"(256, 1, 1)\","
      "\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"ns\",\"5312\"\n";
  const auto r = interpret_ncu_probe(output, true);
  EXPECT_TRUE(r.counters_readable);
  EXPECT_EQ(r.detail, "profiled a probe kernel: gpu__time_duration.sum = 5312 ns");
}

TEST(NcuProbe, RecognisesMissingPermission) {
  const auto r = interpret_ncu_probe(
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters\n",
      false);
  EXPECT_FALSE(r.counters_readable);
  EXPECT_NE(r.detail.find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_NE(r.fix.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos);
}

TEST(NcuProbe, ReportsTheFirstErrorLine) {
  const auto r = interpret_ncu_probe(
      "==PROF== Connected to process 1\n==ERROR== Failed to initialize the profiler: LibraryNotLoaded\n", false);
  EXPECT_FALSE(r.counters_readable);
  EXPECT_EQ(r.detail, "==ERROR== Failed to initialize the profiler: LibraryNotLoaded");
}

}  // namespace
}  // namespace kopt::env
