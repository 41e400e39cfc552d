// The speed-of-light bound and what the final answer says of it: the longer of the memory and
// compute sides, a version's percent of it, and the share of the gap from the reference closed.
#include "measure/speed_of_light.h"

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {

speed_of_light_inputs softmax_inputs() {
  speed_of_light_inputs in;
  in.problem_bytes = 33554432;  // 4096 x 1024 float32, read and written
  in.dram_bytes_per_s = 4.0e12;
  in.dram_source = "a device-to-device copy measured before timing";
  in.compute_note = "the reference states no `kopt: flops=EXPR`";
  return in;
}

TEST(SpeedOfLight, WithoutFlopsTheBoundIsTheBytesAtTheBandwidthAndSaysSo) {
  const auto f = speed_of_light(softmax_inputs(), 0.0167772, 0.12);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->bound_by, "memory");
  EXPECT_NEAR(f->bound_ms, 0.00838861, 1e-7);
  EXPECT_NEAR(f->percent_of_bound, 50.0, 0.01);
  // From 0.12 ms to the bound 0.0084 ms, the version went to 0.0168: (0.12 - 0.0168) / (0.12 - 0.0084).
  EXPECT_NEAR(*f->gap_closed_percent, 92.48, 0.01);
  EXPECT_FALSE(f->compute_bound_ms);
  EXPECT_EQ(f->note, "bytes only: the reference states no `kopt: flops=EXPR`");
  EXPECT_EQ(speed_of_light_line(*f),
            "at 50.0 % of speed-of-light (bound 0.008389 ms, memory: 33.6 MB through DRAM at 4 TB/s, a device-to-device copy "
            "measured before timing); closed 92.5 % of the gap from the reference to the bound; bytes only: the "
            "reference states no `kopt: flops=EXPR`");
}

TEST(SpeedOfLight, TheComputeSideBoundsWhenItIsTheLongerOne) {
  speed_of_light_inputs in = softmax_inputs();
  in.problem_bytes = 3 * 4096.0 * 4096 * 4;  // a 4096^3 float32 matmul
  in.flops = 2 * 4096.0 * 4096 * 4096;
  in.peak_flop_per_s = 60e12;
  in.peak_source = "FP32 peak of the version's ncu profile";
  const auto f = speed_of_light(in, 4.58, std::nullopt);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->bound_by, "compute");
  EXPECT_NEAR(f->bound_ms, 2.2906, 1e-4);
  EXPECT_NEAR(f->memory_bound_ms, 0.0503, 1e-4);
  EXPECT_NEAR(f->percent_of_bound, 50.01, 0.01);
  EXPECT_FALSE(f->gap_closed_percent) << "no reference time, no gap";
  EXPECT_TRUE(f->note.empty());
  EXPECT_NE(speed_of_light_line(*f).find("compute: 137 GFLOP at 60 TFLOP/s, FP32 peak"), std::string::npos)
      << speed_of_light_line(*f);
}

TEST(SpeedOfLight, AReferenceAtTheBoundHasNoGapAndNothingMeasuredHasNoBound) {
  const auto at_bound = speed_of_light(softmax_inputs(), 0.01, 0.008);
  ASSERT_TRUE(at_bound);
  EXPECT_FALSE(at_bound->gap_closed_percent);
  speed_of_light_inputs none = softmax_inputs();
  none.dram_bytes_per_s = 0;
  EXPECT_FALSE(speed_of_light(none, 0.01, 0.1));
  EXPECT_FALSE(speed_of_light(softmax_inputs(), 0, 0.1));
}

}  // namespace
}  // namespace kopt::measure
