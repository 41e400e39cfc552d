// GPU machine only: the probes must see the real device.
#include "env/gpu_probe.h"

#include <gtest/gtest.h>

#include "cuda/nvml_library.h"

namespace kopt::env {
namespace {

TEST(GpuProbe, SeesTheGpu) {
  const gpu_probe_result gpus = probe_gpus();
  ASSERT_TRUE(gpus.has_gpu()) << "no GPU: " << gpus.driver_problem;
  const gpu_device& device = gpus.devices.front();
  EXPECT_FALSE(device.name.empty());
  EXPECT_EQ(device.uuid.rfind("GPU-", 0), 0u) << device.uuid;
  EXPECT_GE(device.capability.major, 7);
  EXPECT_GT(device.multiprocessors, 0);
  EXPECT_GT(device.l2_bytes, 0);
  EXPECT_GT(device.memory_bytes, 1LL << 30);
  EXPECT_GE(gpus.driver_cuda_version, 12000);
}

TEST(GpuProbe, NvmlReportsDriverAndClocks) {
  const gpu_probe_result gpus = probe_gpus();
  ASSERT_TRUE(gpus.has_gpu());
  ASSERT_TRUE(cuda::nvml_library::instance().available());
  EXPECT_FALSE(gpus.driver_version.empty());
  const auto clocks = cuda::nvml_library::instance().clocks(gpus.devices.front().uuid);
  ASSERT_TRUE(clocks.has_value());
  EXPECT_GT(clocks->sm_max_mhz, 0);
  EXPECT_GT(clocks->sm_now_mhz, 0);
}

}  // namespace
}  // namespace kopt::env
