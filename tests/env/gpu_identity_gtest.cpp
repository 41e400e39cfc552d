#include "env/gpu_identity.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::env {
namespace {

gpu_device h100(int ordinal) {
  gpu_device d;
  d.ordinal = ordinal;
  d.name = "NVIDIA H100 80GB HBM3";
  d.uuid = "GPU-0000000" + std::to_string(ordinal);
  d.capability = {9, 0};
  d.multiprocessors = 132;
  d.memory_bytes = 85'031'714'816;
  d.sm_clock_max_mhz = 1980;
  d.memory_clock_max_mhz = 2619;
  d.ecc_enabled = true;
  d.mig_mode = cuda::mig_mode::disabled;
  d.power_limit_mw = 700'000;
  return d;
}

gpu_probe_result host_of(int count) {
  gpu_probe_result probe;
  probe.driver_loaded = true;
  probe.driver_version = "580.95.05";
  for (int i = 0; i < count; ++i) probe.devices.push_back(h100(i));
  return probe;
}

std::vector<int> all_of(const gpu_probe_result& probe) {
  return resolve_gpu_selection({true, {}}, probe);
}

// The message a kopt::error carries, or "" when none is thrown.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.headline();
  }
  return "";
}

TEST(GpuIdentity, IdenticalGpusAllShareTheVerdict) {
  const gpu_probe_result probe = host_of(4);
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(group.refused.empty());
}

TEST(GpuIdentity, RefusesAGpuWithALowerClockLimitNamingBothValues) {
  gpu_probe_result probe = host_of(4);
  probe.devices[3].sm_clock_max_mhz = 1755;
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(group.refused.size(), 1u);
  EXPECT_EQ(group.refused[0].ordinal, 3);
  EXPECT_EQ(group.refused[0].reason,
            "GPU 3 (NVIDIA H100 80GB HBM3) differs from GPU 0: max SM clock 1755 MHz against 1980 MHz");
}

TEST(GpuIdentity, RefusesAGpuWhoseEccModeDiffers) {
  gpu_probe_result probe = host_of(2);
  probe.devices[1].ecc_enabled = false;
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{0}));
  ASSERT_EQ(group.refused.size(), 1u);
  EXPECT_EQ(group.refused[0].reason,
            "GPU 1 (NVIDIA H100 80GB HBM3) differs from GPU 0: ECC mode disabled against enabled");
}

TEST(GpuIdentity, RefusesAGpuWhoseMigModeDiffers) {
  gpu_probe_result probe = host_of(3);
  probe.devices[2].mig_mode = cuda::mig_mode::enabled;
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{0, 1}));
  ASSERT_EQ(group.refused.size(), 1u);
  EXPECT_EQ(group.refused[0].reason,
            "GPU 2 (NVIDIA H100 80GB HBM3) differs from GPU 0: MIG mode enabled against disabled");
}

TEST(GpuIdentity, AFactKnownOnOneGpuOnlyIsADifferenceButUnknownOnAllAgrees) {
  gpu_probe_result probe = host_of(3);
  for (auto& device : probe.devices) device.power_limit_mw.reset();
  probe.devices[1].mig_mode = cuda::mig_mode::not_supported;
  probe.devices[2].mig_mode.reset();
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{0}));
  ASSERT_EQ(group.refused.size(), 2u);
  EXPECT_EQ(group.refused[0].reason,
            "GPU 1 (NVIDIA H100 80GB HBM3) differs from GPU 0: MIG mode not supported against disabled");
  EXPECT_EQ(group.refused[1].reason,
            "GPU 2 (NVIDIA H100 80GB HBM3) differs from GPU 0: MIG mode unknown against disabled");
}

TEST(GpuIdentity, EightGpusOfWhichThreeDifferKeepTheFive) {
  gpu_probe_result probe = host_of(8);
  // GPU 0 is one of the three: the five others are the group and the reference is GPU 1.
  probe.devices[0].power_limit_mw = 500'000;
  probe.devices[4].power_limit_mw = 500'000;
  probe.devices[6].memory_clock_max_mhz = 1593;
  probe.devices[6].multiprocessors = 114;
  const gpu_group group = identical_gpu_group(probe, all_of(probe));
  EXPECT_EQ(group.ordinals, (std::vector<int>{1, 2, 3, 5, 7}));
  ASSERT_EQ(group.refused.size(), 3u);
  EXPECT_EQ(group.refused[0].reason,
            "GPU 0 (NVIDIA H100 80GB HBM3) differs from GPU 1: power limit 500 W against 700 W");
  EXPECT_EQ(group.refused[1].ordinal, 4);
  EXPECT_EQ(group.refused[2].reason,
            "GPU 6 (NVIDIA H100 80GB HBM3) differs from GPU 1: SM count 114 against 132; "
            "max memory clock 1593 MHz against 2619 MHz");
}

TEST(GpuIdentity, ATieGoesToTheGroupHoldingTheLowestRequestedOrdinal) {
  gpu_probe_result probe = host_of(4);
  probe.devices[1].name = probe.devices[3].name = "NVIDIA H100 PCIe";
  // Requested out of order: the group holding GPU 0 wins although GPU 3's group is named first.
  const gpu_group group = identical_gpu_group(probe, {3, 1, 2, 0});
  EXPECT_EQ(group.ordinals, (std::vector<int>{2, 0}));
  ASSERT_EQ(group.refused.size(), 2u);
  EXPECT_EQ(group.refused[0].ordinal, 3);
  EXPECT_EQ(
      group.refused[0].reason,
      "GPU 3 (NVIDIA H100 PCIe) differs from GPU 0: name NVIDIA H100 PCIe against NVIDIA H100 80GB HBM3");
  EXPECT_EQ(group.refused[1].ordinal, 1);
}

TEST(GpuIdentity, MemoryThatRoundsAlikeIsWrittenToTheByte) {
  gpu_device a = h100(1);
  a.memory_bytes -= 4096;
  const auto differences = gpu_differences(a, "580.95.05", h100(0), "580.95.05");
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0], "memory 85,031,710,720 bytes against 85,031,714,816 bytes");
}

TEST(GpuIdentity, DriverVersionsOfTwoProbesAreCompared) {
  const auto differences = gpu_differences(h100(0), "570.86.15", h100(0), "");
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0], "driver version 570.86.15 against unknown");
}

TEST(GpuIdentity, RefusesABusyGpuAndKeepsOnesNvmlCannotTellAbout) {
  const gpu_probe_result probe = host_of(4);
  gpu_group group = identical_gpu_group(probe, all_of(probe));
  group = without_busy_gpus(probe, group, {{0, 0}, {1, 2}, {2, 1}});
  EXPECT_EQ(group.ordinals, (std::vector<int>{0, 3}));
  ASSERT_EQ(group.refused.size(), 2u);
  EXPECT_EQ(
      group.refused[0].reason,
      "GPU 1 (NVIDIA H100 80GB HBM3) is busy: 2 other compute processes run on it, so its times would be "
      "slower and noisier than the other GPUs'");
  EXPECT_EQ(
      group.refused[1].reason,
      "GPU 2 (NVIDIA H100 80GB HBM3) is busy: 1 other compute process runs on it, so its times would be "
      "slower and noisier than the other GPUs'");
}

TEST(GpuIdentity, BusyRefusalsFollowTheIdentityRefusals) {
  gpu_probe_result probe = host_of(3);
  probe.devices[2].ecc_enabled = false;
  const gpu_group group = without_busy_gpus(probe, identical_gpu_group(probe, all_of(probe)), {{1, 1}});
  EXPECT_EQ(group.ordinals, (std::vector<int>{0}));
  ASSERT_EQ(group.refused.size(), 2u);
  EXPECT_EQ(group.refused[0].ordinal, 2);
  EXPECT_EQ(group.refused[1].ordinal, 1);
}

TEST(GpuSelection, ParsesAllAndACommaList) {
  EXPECT_TRUE(parse_gpu_selection("all").all);
  const gpu_selection listed = parse_gpu_selection("0, 2,3");
  EXPECT_FALSE(listed.all);
  EXPECT_EQ(listed.ordinals, (std::vector<int>{0, 2, 3}));
}

TEST(GpuSelection, NamesTheBadPartAndWhatToWrite) {
  EXPECT_EQ(
      error_of([] { parse_gpu_selection("0,x,2"); }),
      R"(--gpus "0,x,2": "x" is not a GPU ordinal; write "all" or a comma list of GPU ordinals such as "0,2,3")");
  EXPECT_EQ(
      error_of([] { parse_gpu_selection("0,,2"); }),
      R"(--gpus "0,,2": an empty entry is not a GPU ordinal; write "all" or a comma list of GPU ordinals such as "0,2,3")");
  EXPECT_EQ(
      error_of([] { parse_gpu_selection("-1"); }),
      R"(--gpus "-1": "-1" is not a GPU ordinal; write "all" or a comma list of GPU ordinals such as "0,2,3")");
  EXPECT_EQ(
      error_of([] { parse_gpu_selection("1,"); }),
      R"(--gpus "1,": an empty entry is not a GPU ordinal; write "all" or a comma list of GPU ordinals such as "0,2,3")");
  EXPECT_EQ(error_of([] { parse_gpu_selection(""); }),
            R"(--gpus is empty; write "all" or a comma list of GPU ordinals such as "0,2,3")");
}

TEST(GpuSelection, ResolvesAgainstTheVisibleGpus) {
  const gpu_probe_result probe = host_of(4);
  EXPECT_EQ(resolve_gpu_selection(parse_gpu_selection("all"), probe), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(resolve_gpu_selection(parse_gpu_selection("3,1"), probe), (std::vector<int>{3, 1}));
  EXPECT_EQ(
      error_of([&] { resolve_gpu_selection(parse_gpu_selection("0,5"), probe); }),
      "--gpus: GPU 5 is not visible; the visible GPUs are 0, 1, 2, 3 (numbered after CUDA_VISIBLE_DEVICES)");
  EXPECT_EQ(error_of([&] { resolve_gpu_selection(parse_gpu_selection("1,2,1"), probe); }),
            "--gpus: GPU 1 is named twice; name each GPU once");
}

TEST(GpuSelection, NoGpuAtAllSaysWhy) {
  gpu_probe_result probe;
  probe.driver_problem = "the CUDA driver sees no GPU (check CUDA_VISIBLE_DEVICES)";
  EXPECT_EQ(error_of([&] { resolve_gpu_selection(parse_gpu_selection("all"), probe); }),
            "--gpus: no GPU is visible: the CUDA driver sees no GPU (check CUDA_VISIBLE_DEVICES)");
}

TEST(GpuState, WritesNullWhereNvmlCannotTell) {
  gpu_state state;
  state.ordinal = 2;
  state.uuid = "GPU-00000002";
  state.sm_clock_now_mhz = 1980;
  state.clock_event_reasons = "";
  state.taken_at = "2026-12-01T18:30:05Z";
  const json written = to_json(state);
  EXPECT_EQ(written.dump(),
            R"({"ordinal":2,"uuid":"GPU-00000002","sm_clock_now_mhz":1980,"temperature_c":null,)"
            R"("clock_event_reasons":"","taken_at":"2026-12-01T18:30:05Z"})");
}

TEST(GpuState, WithoutNvmlStillNamesTheGpuAndTheTime) {
  // A uuid no driver knows: NVML, present or not, answers nothing, never an error.
  gpu_device device = h100(1);
  device.uuid = "GPU-not-a-device";
  const gpu_state state = gpu_state_now(device);
  EXPECT_EQ(state.ordinal, 1);
  EXPECT_EQ(state.uuid, "GPU-not-a-device");
  EXPECT_FALSE(state.sm_clock_now_mhz.has_value());
  EXPECT_FALSE(state.clock_event_reasons.has_value());
  EXPECT_EQ(state.taken_at.size(), std::string("2026-12-01T18:30:05Z").size());
  EXPECT_EQ(state.taken_at.back(), 'Z');
}

TEST(GpuProbeJson, KeepsTheOldKeysAndAddsTheNewOnes) {
  gpu_device device = h100(0);
  device.temperature_c.reset();
  const json written = to_json(device);
  EXPECT_EQ(written.at("sm_clock_max_mhz"), 1980);
  EXPECT_EQ(written.at("compute_capability"), "9.0");
  EXPECT_EQ(written.at("memory_clock_max_mhz"), 2619);
  EXPECT_TRUE(written.at("temperature_c").is_null());
  EXPECT_EQ(written.at("ecc_enabled"), true);
  EXPECT_EQ(written.at("mig_mode"), "disabled");
  EXPECT_EQ(written.at("power_limit_mw"), 700000);
}

}  // namespace
}  // namespace kopt::env
