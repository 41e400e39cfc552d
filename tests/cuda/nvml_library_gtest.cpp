#include "cuda/nvml_library.h"

#include <gtest/gtest.h>

namespace kopt::cuda {
namespace {

TEST(NvmlLibrary, NamesClockEventReasonBits) {
  EXPECT_EQ(describe_clock_event_reasons(0), "");
  EXPECT_EQ(describe_clock_event_reasons(0x1), "gpu_idle");
  EXPECT_EQ(describe_clock_event_reasons(0x4 | 0x40), "sw_power_cap,hw_thermal_slowdown");
}

}  // namespace
}  // namespace kopt::cuda
